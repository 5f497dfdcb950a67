import { expect } from 'chai';
import { Wallet } from 'ethers';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys, requestTransfer, transferEvents } from '../support/transfers.js';

describe('outgoing transfers from two chain-watcher replicas sharing one relayer (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(45_000);
  let devnet: Devnet;
  let first: Harness;
  let second: Harness;
  let base: ChainProbe;
  const shops: Merchant[] = [];

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 0 });
    // Small batches, so that both replicas lease a share and allocate nonces side by side.
    const env = {
      RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
      TRANSFER_POLL_MS: '50',
      TRANSFER_BATCH_SIZE: '2',
      TRANSFER_CONCURRENCY: '2',
    };
    first = await startHarness({ registry: devnet.registry(), env });
    second = await startHarness({
      registry: devnet.registry(),
      env,
      share: first,
    });
    base = new ChainProbe(devnet.chain('BASE'));
    for (let i = 0; i < 3; i++) {
      const shop = await first.createMerchant('BASE');
      await devnet.fund('BASE', shop.address, { USDC: units('100') });
      shops.push(shop);
    }
  });
  after(async () => {
    base?.destroy();
    await second?.close();
    await first?.close();
    await devnet?.stop();
  });

  it('confirms 10 transfers once each, with consecutive relayer nonces: no gap, no duplicate', async () => {
    const relayer = devnet.relayers.BASE!.address;
    const startNonce = await base.nonce(relayer);
    const sent: Array<{ key: string; to: string; amount: bigint }> = [];
    for (let i = 0; i < 10; i++) {
      const to = Wallet.createRandom().address;
      const amount = `${i + 1}.0${i}`;
      // Every other command is delivered twice, as a broker may redeliver it.
      const key = await requestTransfer(
        first,
        { merchant: shops[i % shops.length]!, toAddress: to, amount },
        1 + (i % 2),
      );
      sent.push({ key, to, amount: units(amount) });
    }

    const keys = new Set(sent.map((s) => s.key));
    const confirmedKeys = () =>
      new Set(
        first.events.messages
          .filter((e) => e.type === 'transfer.confirmed' && keys.has(e.data.idempotencyKey))
          .map((e) => e.data.idempotencyKey),
      );
    await waitFor(() => confirmedKeys().size === 10, 30_000, '10 confirmations');
    await waitFor(
      async () => (await first.db('outbox').whereNull('published_at').count('* as n'))[0]!.n === '0',
    );
    await first.events.drain();
    await second.events.drain();

    const nonces: number[] = [];
    for (const observed of [first, second]) {
      for (const { key, to, amount } of sent) {
        const events = transferEvents(observed, key);
        expect(
          events.map((e) => e.type),
          key,
        ).to.deep.equal(['transfer.submitted', 'transfer.confirmed']);
        const txHash = events[1]!.data.txHash as string;
        if (observed === first) {
          expect(await base.transfersTo('USDC', to)).to.deep.equal([{ txHash, value: amount }]);
          const tx = (await base.transaction(txHash))!;
          expect(tx.from.toLowerCase()).to.equal(relayer.toLowerCase());
          nonces.push(Number(BigInt(tx.nonce)));
        }
      }
    }
    expect([...nonces].sort((a, b) => a - b)).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => startNonce + i),
    );
    expect(await base.nonce(relayer)).to.equal(startNonce + 10);
    const row = await first.db('relayer_nonces').where({ relayer_address: relayer }).first();
    expect(Number(row.next_nonce)).to.equal(startNonce + 10);
    expect(await first.db('transfer_attempts').count('* as n')).to.deep.equal([{ n: '10' }]);

    const shares = await Promise.all(
      [first, second].map(async (h) =>
        metricValue(await h.metrics(), 'chain_transfer_attempts_total', { chain: 'BASE', kind: 'first' }),
      ),
    );
    expect(shares[0]! + shares[1]!).to.equal(10);
    console.log(`      (transactions signed per replica: ${shares.join(' + ')})`);
  });
});
