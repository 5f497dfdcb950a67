import { expect } from 'chai';
import { waitFor, type EventObserver } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { startDevnetAttestationService, type AttestationService } from '@stablepay/devnet/attestation/index';
import type { CctpCrashPoint } from '../../src/config.js';
import { units } from '../support/chain.js';
import {
  Burner,
  RELAYER_TEST_CHAINS,
  feeQuote,
  observeCctp,
  onChain,
  publishRelayerPayment,
} from '../support/cctp-relayer.js';
import { spawnWatcher } from '../support/child.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys } from '../support/transfers.js';

/**
 * The chain-watcher killed (SIGKILL, nothing flushed) where a naive relay would lose or repeat money:
 * its mint signed and stored but not broadcast, broadcast but not recorded, and the same for its
 * transfer to the merchant. A fresh instance finishes the payment, and the chain shows exactly one
 * mint (one MessageReceived of the message's nonce) and one transfer relay → merchant.
 */
describe('relayer-flow mint and transfer survive a killed chain-watcher (child process, anvil + attestation API)', function () {
  this.timeout(120_000);
  let devnet: Devnet;
  let attestation: AttestationService;
  let h: Harness;
  let events: EventObserver;
  let base: ChainProbe;
  let shop: Merchant;
  let relay: string;
  const burners: Burner[] = [];
  let nextCustomer = 0;

  const env = () => ({
    RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
    CCTP_ATTESTATION_URL: attestation.url,
    CCTP_POLL_MS: '50',
    CCTP_MAX_BACKOFF_MS: '500',
    // No lease override: the default lease is short (renewed while a replica works on a payment),
    // so the next instance takes over a killed one's payments within seconds.
  });

  before(async () => {
    devnet = await startDevnet({ basePort: 0, chains: RELAYER_TEST_CHAINS, customers: 4 });
    attestation = await startDevnetAttestationService(devnet, { pollIntervalMs: 100 });
    h = await startHarness({ registry: devnet.registry(), env: env() });
    events = await observeCctp(h);
    base = new ChainProbe(devnet.chain('BASE'));
    shop = await h.createMerchant('BASE', ['USDC']);
    relay = devnet.relayers.BASE!.address;
    // From here on only the processes each test starts consume the queue.
    await h.service.stop();
  });
  after(async () => {
    for (const b of burners) b.destroy();
    base?.destroy();
    await events?.close();
    await h?.close();
    await attestation?.stop();
    await devnet?.stop();
  });

  const relayTransactions = (paymentId: string, action: 'mint' | 'transfer') =>
    h.db('cctp_relay_transactions').where({ payment_id: paymentId, action }).orderBy('attempt');
  const row = (paymentId: string) => h.db('cctp_payments').where({ payment_id: paymentId }).first();

  /** A payment whose relay dies at `point`. */
  const killedAt = async (point: CctpCrashPoint, amount: number, merchantReceives: number) => {
    const customer = new Burner(devnet.chain('ETH'), devnet.customers[nextCustomer++]!);
    burners.push(customer);
    const burned = await customer.burn({
      amount: String(amount),
      destination: devnet.chain('BASE'),
      recipient: relay,
    });
    const child = spawnWatcher({
      registry: devnet.registry(),
      databaseUrl: h.databaseUrl,
      amqpUrl: h.amqpUrl,
      prefix: h.prefix,
      env: { ...env(), CCTP_CRASH_POINT: point },
    });
    try {
      const paymentId = await publishRelayerPayment(h, devnet, {
        merchant: shop,
        burnTxHash: burned.hash,
        from: customer.address,
        quote: feeQuote(amount, merchantReceives),
      });
      const ended = await Promise.race([
        child.exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`child did not crash:\n${child.output()}`)), 45_000),
        ),
      ]);
      expect(ended.signal, child.output()).to.equal('SIGKILL');
      return paymentId;
    } finally {
      child.kill();
    }
  };

  /** A fresh instance on the same database and queue finishes what the dead one left. */
  const finish = async (paymentId: string) => {
    const fresh = await startHarness({ registry: devnet.registry(), env: env(), share: h });
    try {
      return await waitFor(
        () =>
          events.messages.find(
            (e) =>
              (e.type === 'chain.cctp.transferred' || e.type === 'chain.cctp.failed') &&
              e.data.paymentId === paymentId,
          ),
        45_000,
        `outcome of ${paymentId}`,
      );
    } finally {
      await fresh.close();
    }
  };

  /** Exactly one mint and one transfer on the chain, each the relay's one stored transaction. */
  const exactlyOnce = async (paymentId: string, merchantReceives: string) => {
    const p = await row(paymentId);
    expect(p.step).to.equal('done');
    const [mint, ...moreMints] = await relayTransactions(paymentId, 'mint');
    const [transfer, ...moreTransfers] = await relayTransactions(paymentId, 'transfer');
    expect(moreMints).to.deep.equal([]);
    expect(moreTransfers).to.deep.equal([]);
    const chain = await onChain(devnet.chain('BASE'), {
      nonce: p.message_nonce,
      relay,
      merchant: shop.address,
    });
    expect(chain.mints).to.deep.equal([mint.tx_hash]);
    expect(chain.transfers.filter((t) => t.txHash === transfer.tx_hash)).to.deep.equal([
      { txHash: transfer.tx_hash, value: units(merchantReceives) },
    ]);
    expect(p.mint_tx_hash).to.equal(mint.tx_hash);
    expect(p.transfer_tx_hash).to.equal(transfer.tx_hash);
    // The relayer's nonces stayed in step with the chain: nothing was allocated twice or skipped.
    expect(await base.nonce(relay)).to.equal(Number(transfer.relayer_nonce) + 1);
  };

  it('killed after signing the mint, before broadcasting it: the stored bytes go out once', async () => {
    const paymentId = await killedAt('mint_signed', 6.6, 6);
    const [mint, ...more] = await relayTransactions(paymentId, 'mint');
    expect(more).to.deep.equal([]);
    expect(mint.broadcast_at).to.equal(null);
    expect(await base.receipt(mint.tx_hash)).to.equal(null);
    expect(Number(mint.relayer_nonce)).to.equal(await base.nonce(relay, 'pending'));

    const done = await finish(paymentId);
    expect(done.type, JSON.stringify(done.data)).to.equal('chain.cctp.transferred');
    await exactlyOnce(paymentId, '6');
  });

  it('killed after broadcasting the mint, before recording it: the nonce is found used, nothing is sent again', async () => {
    const paymentId = await killedAt('mint_broadcast', 7.6, 7);
    const [mint] = await relayTransactions(paymentId, 'mint');
    expect(mint.broadcast_at).to.equal(null);
    expect((await base.receipt(mint.tx_hash))!.status).to.equal('0x1');
    expect((await row(paymentId)).step).to.equal('mint');

    const done = await finish(paymentId);
    expect(done.type, JSON.stringify(done.data)).to.equal('chain.cctp.transferred');
    await exactlyOnce(paymentId, '7');
  });

  it('killed after signing the transfer to the merchant, before broadcasting it: it goes out once', async () => {
    const paymentId = await killedAt('transfer_signed', 8.6, 8);
    expect((await row(paymentId)).step).to.equal('transfer');
    const [transfer] = await relayTransactions(paymentId, 'transfer');
    expect(transfer.broadcast_at).to.equal(null);
    expect(await base.receipt(transfer.tx_hash)).to.equal(null);

    const done = await finish(paymentId);
    expect(done.type, JSON.stringify(done.data)).to.equal('chain.cctp.transferred');
    expect(done.data.transferTxHash).to.equal(transfer.tx_hash);
    await exactlyOnce(paymentId, '8');
  });

  it('killed after broadcasting the transfer, before recording it: the spent authorization is found, nothing is sent again', async () => {
    const before = await base.balance('USDC', shop.address);
    const paymentId = await killedAt('transfer_broadcast', 9.6, 9);
    const [transfer] = await relayTransactions(paymentId, 'transfer');
    expect(transfer.broadcast_at).to.equal(null);
    expect((await base.receipt(transfer.tx_hash))!.status).to.equal('0x1');
    expect((await row(paymentId)).step).to.equal('transfer');

    const done = await finish(paymentId);
    expect(done.type, JSON.stringify(done.data)).to.equal('chain.cctp.transferred');
    expect(done.data.transferTxHash).to.equal(transfer.tx_hash);
    await exactlyOnce(paymentId, '9');
    expect((await base.balance('USDC', shop.address)) - before).to.equal(units('9'));
  });
});
