import { expect } from 'chai';
import { Wallet, type Contract, type TransactionResponse } from 'ethers';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import {
  ChainProbe,
  attemptRows,
  devnetRelayerKeys,
  requestTransfer,
  transferEvents,
  transferOutcome,
  transferRow,
} from '../support/transfers.js';

const recipient = () => Wallet.createRandom().address;
/** Ahead of the relayer's transaction in the same block (its tip is the node's suggestion). */
const FIRST_IN_BLOCK = { maxPriorityFeePerGas: 50_000_000_000n, maxFeePerGas: 100_000_000_000n };

/**
 * The token issuer's controls, as Circle's USDC has them: a pause stops every transfer for a while,
 * a blacklist refuses an address for good. The devnet token reverts with Circle's strings.
 */
describe('outgoing transfers against a paused token or a blacklisted address (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;
  let relayer: string;
  /** USDC and EURC signed by the devnet deployer, their pauser and blacklister. */
  let issuer: { USDC: Contract; EURC: Contract };

  before(async () => {
    devnet = await startDevnet({
      basePort: 0,
      customers: 0,
      chains: [{ name: 'BASE', chainId: 31002, cctpDomain: 6 }],
    });
    h = await startHarness({
      registry: devnet.registry(),
      env: {
        RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
        TRANSFER_POLL_MS: '50',
        TRANSFER_MAX_BACKOFF_MS: '400',
      },
    });
    base = new ChainProbe(devnet.chain('BASE'));
    relayer = devnet.relayers.BASE!.address;
    const deployer = new Wallet(devnet.deployer.privateKey, base.provider);
    issuer = { USDC: base.token('USDC', deployer), EURC: base.token('EURC', deployer) };
    shop = await h.createMerchant('BASE');
    await devnet.fund('BASE', shop.address, { USDC: units('100'), EURC: units('10') });
  });
  afterEach(async () => {
    await base.setAutomine(true);
    for (const token of [issuer.USDC, issuer.EURC]) {
      if (await token.getFunction('paused')()) await (await token.getFunction('unpause')()).wait();
    }
  });
  after(async () => {
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const issue = async (token: Contract, fn: string, ...args: unknown[]): Promise<TransactionResponse> =>
    (await token.getFunction(fn)(...args)) as TransactionResponse;

  it('waits while the token is paused, storing and sending nothing, and completes once unpaused with one Transfer', async () => {
    await (await issue(issuer.USDC, 'pause')).wait();
    const nonceBefore = await base.nonce(relayer);
    const to = recipient();
    const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '4.5' });

    // Looked at again and again with a growing delay, still pending, nothing on the chain.
    const waiting = await waitFor(async () => {
      const row = await transferRow(h, key);
      return row?.backoff_step >= 3 && row;
    }, 10_000);
    expect(waiting).to.include({ status: 'pending', tx_hash: null });
    expect(waiting.last_error).to.equal(
      'the USDC contract on BASE is paused: the transfer waits until it is unpaused',
    );
    expect(await attemptRows(h, key)).to.deep.equal([]);
    expect(await base.nonce(relayer)).to.equal(nonceBefore);
    expect(transferEvents(h, key)).to.deep.equal([]);

    await (await issue(issuer.USDC, 'unpause')).wait();
    const confirmed = await transferOutcome(h, key);
    expect(confirmed.type).to.equal('transfer.confirmed');
    expect(await base.transfersTo('USDC', to)).to.deep.equal([
      { txHash: confirmed.data.txHash, value: units('4.5') },
    ]);
    await h.events.drain();
    expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal([
      'transfer.submitted',
      'transfer.confirmed',
    ]);
    expect(await attemptRows(h, key)).to.have.length(1);
  });

  it('fails for good when the token blacklists the recipient or the merchant wallet, saying who, and sends nothing', async () => {
    const to = recipient();
    await (await issue(issuer.USDC, 'blacklist', to)).wait();
    const nonceBefore = await base.nonce(relayer);
    const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '1' });
    const failed = await transferOutcome(h, key);
    expect(failed.type).to.equal('transfer.failed');
    expect(failed.data).to.deep.equal({
      idempotencyKey: key,
      purpose: 'refund',
      code: 'blacklisted',
      reason: `the USDC contract refuses this address (blacklisted): the recipient ${to} is on the USDC issuer's blacklist; nothing was transferred`,
      txHash: null,
    });
    expect(await transferRow(h, key)).to.include({ status: 'failed', failure_code: 'blacklisted' });
    expect(await attemptRows(h, key)).to.deep.equal([]);

    // The source side: EURC blacklists the merchant wallet itself.
    await (await issue(issuer.EURC, 'blacklist', shop.address)).wait();
    const fromListed = await requestTransfer(h, {
      merchant: shop,
      toAddress: recipient(),
      amount: '1',
      token: 'EURC',
    });
    const refused = await transferOutcome(h, fromListed);
    expect(refused.data.reason).to.equal(
      `the EURC contract refuses this address (blacklisted): the merchant wallet ${shop.address} is on the EURC issuer's blacklist; nothing was transferred`,
    );
    expect(await base.nonce(relayer)).to.equal(nonceBefore);
    expect(await base.transfersTo('USDC', to)).to.deep.equal([]);
    await (await issue(issuer.EURC, 'unBlacklist', shop.address)).wait();
  });

  describe('after the relayer transaction was sent (automine off)', () => {
    /** The first attempt once it waits in anvil's pool. */
    const pooledFirstAttempt = async (key: string) => {
      const [first] = await waitFor(async () => {
        const rows = await attemptRows(h, key);
        return rows[0]?.broadcast_at && rows;
      }, 10_000);
      expect(await base.pooled()).to.include(first.tx_hash);
      return first;
    };

    it('a transfer the pause reverted waits, without cancelling, and is sent again once unpaused', async () => {
      await base.setAutomine(false);
      const to = recipient();
      const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '2' });
      const first = await pooledFirstAttempt(key);
      await issue(issuer.USDC, 'pause', FIRST_IN_BLOCK);
      await base.mine();
      expect((await base.receipt(first.tx_hash))!.status).to.equal('0x0');

      const waiting = await waitFor(async () => {
        const row = await transferRow(h, key);
        return row?.backoff_step >= 2 && row;
      }, 10_000);
      expect(waiting).to.include({ status: 'sending' });
      expect(waiting.last_error).to.match(/USDC contract on BASE is paused/);
      expect(await attemptRows(h, key)).to.have.length(1); // no cancellation: it would be refused too
      expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal(['transfer.submitted']);

      await base.setAutomine(true);
      await (await issue(issuer.USDC, 'unpause')).wait();
      const confirmed = await transferOutcome(h, key);
      expect(confirmed.type).to.equal('transfer.confirmed');
      const attempts = await attemptRows(h, key);
      expect(attempts.map((a) => [a.action, a.kind])).to.deep.equal([
        ['transfer', 'first'],
        ['transfer', 'renonce'],
      ]);
      expect(confirmed.data.txHash).to.equal(attempts[1].tx_hash);
      expect(await base.transfersTo('USDC', to)).to.deep.equal([
        { txHash: confirmed.data.txHash, value: units('2') },
      ]);
    });

    it('a transfer reverted by a blacklisting has its authorization cancelled, then fails with the reason', async () => {
      await base.setAutomine(false);
      const to = recipient();
      const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '3' });
      const first = await pooledFirstAttempt(key);
      await issue(issuer.USDC, 'blacklist', to, FIRST_IN_BLOCK);
      await base.mine();
      expect((await base.receipt(first.tx_hash))!.status).to.equal('0x0');

      const cancel = await waitFor(async () => (await attemptRows(h, key))[1], 10_000, 'a cancellation');
      expect(cancel).to.include({ action: 'cancel', kind: 'first' });
      await base.mine();
      const failed = await transferOutcome(h, key);
      expect(failed.data).to.deep.include({ code: 'blacklisted', txHash: first.tx_hash });
      expect(failed.data.reason).to.equal(
        `the USDC contract refuses this address (blacklisted): the recipient ${to} is on the USDC issuer's blacklist; nothing was transferred`,
      );
      expect((await base.receipt(cancel.tx_hash))!.status).to.equal('0x1');
      expect(await base.transfersTo('USDC', to)).to.deep.equal([]);
    });
  });
});
