import { expect } from 'chai';
import { Wallet } from 'ethers';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import { spawnWatcher } from '../support/child.js';
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

/**
 * The service killed (SIGKILL, nothing flushed) at the two moments a naive sender loses or repeats
 * a transfer: after signing and storing the relayer transaction but before broadcasting it, and
 * after broadcasting it but before recording that. A fresh instance must finish the job, with
 * exactly one transfer on the chain.
 */
describe('outgoing transfers survive a killed chain-watcher (child process, anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;
  let relayer: string;
  const env = (devnet: Devnet) => ({
    RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
    TRANSFER_POLL_MS: '50',
    // No lease override: the default lease is short (renewed while a replica steps a transfer), so
    // the next instance takes over a killed one's transfers within seconds.
  });

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 0 });
    h = await startHarness({ registry: devnet.registry(), env: env(devnet) });
    base = new ChainProbe(devnet.chain('BASE'));
    relayer = devnet.relayers.BASE!.address;
    shop = await h.createMerchant('BASE');
    await devnet.fund('BASE', shop.address, { USDC: units('40') });
    // From here on only the processes each test starts consume the queue.
    await h.service.stop();
  });
  after(async () => {
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const killedAt = async (point: 'after_sign' | 'after_broadcast', amount: string) => {
    const to = Wallet.createRandom().address;
    const nonceBefore = await base.nonce(relayer);
    const child = spawnWatcher({
      registry: devnet.registry(),
      databaseUrl: h.databaseUrl,
      amqpUrl: h.amqpUrl,
      prefix: h.prefix,
      env: { ...env(devnet), TRANSFER_CRASH_POINT: point },
    });
    try {
      const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount });
      const ended = await Promise.race([
        child.exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`child did not crash:\n${child.output()}`)), 30_000),
        ),
      ]);
      expect(ended.signal, child.output()).to.equal('SIGKILL');
      const diedAt = Date.now();
      const [attempt, ...more] = await attemptRows(h, key);
      expect(more).to.deep.equal([]);
      expect(attempt.broadcast_at).to.equal(null);
      return { key, to, attempt, nonceBefore, diedAt };
    } finally {
      child.kill();
    }
  };

  /** A fresh instance on the same database and queue finishes what the dead one left. */
  const finish = async (key: string) => {
    const fresh = await startHarness({
      registry: devnet.registry(),
      env: env(devnet),
      share: h,
    });
    try {
      const outcome = await transferOutcome(h, key, 20_000);
      await waitFor(
        async () => (await h.db('outbox').whereNull('published_at').count('* as n'))[0]!.n === '0',
      );
      await h.events.drain();
      return outcome;
    } finally {
      await fresh.close();
    }
  };

  it('killed after signing, before broadcasting: the stored bytes are broadcast by the next instance, once', async () => {
    const { key, to, attempt, nonceBefore } = await killedAt('after_sign', '7.5');
    // Nothing reached the chain: the nonce is the relayer's next one, and nothing is pooled or mined.
    expect(Number(attempt.relayer_nonce)).to.equal(nonceBefore);
    expect(await base.nonce(relayer, 'pending')).to.equal(nonceBefore);
    expect(await base.receipt(attempt.tx_hash)).to.equal(null);

    const confirmed = await finish(key);
    expect(confirmed.type).to.equal('transfer.confirmed');
    expect(confirmed.data.txHash).to.equal(attempt.tx_hash); // the same raw bytes
    expect(await base.transfersTo('USDC', to)).to.deep.equal([
      { txHash: attempt.tx_hash, value: units('7.5') },
    ]);
    expect(await base.balance('USDC', to)).to.equal(units('7.5'));
    expect(await attemptRows(h, key)).to.have.length(1);
    expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal([
      'transfer.submitted',
      'transfer.confirmed',
    ]);
    expect(await base.nonce(relayer)).to.equal(nonceBefore + 1);
  });

  it('killed mid-step on the default lease: its transfer is taken within seconds and sent once', async () => {
    const { key, to, attempt, nonceBefore, diedAt } = await killedAt('after_sign', '3.75');
    // What the dead holder left: a lease of 6 s (TRANSFER_LEASE_MS's default) that nothing renews.
    const held = (await transferRow(h, key)) as { locked_until: Date };
    expect(held.locked_until.getTime() - diedAt).to.be.at.most(6_000);

    const confirmed = await finish(key);
    const [taken] = await attemptRows(h, key);
    const takenAfterMs = (taken.broadcast_at as Date).getTime() - diedAt;
    // The rest of the lease, the new instance's start and one pass (a lease sized for a worst-case
    // step, 30 s + 10 × RPC_TIMEOUT_MS, kept it 110 s here).
    expect(takenAfterMs, 'broadcast by the next instance after the kill (ms)').to.be.below(15_000);
    expect(confirmed.data.txHash).to.equal(attempt.tx_hash);
    expect(await base.transfersTo('USDC', to)).to.deep.equal([
      { txHash: attempt.tx_hash, value: units('3.75') },
    ]);
    expect(await attemptRows(h, key)).to.have.length(1);
    expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal([
      'transfer.submitted',
      'transfer.confirmed',
    ]);
    expect(await base.nonce(relayer)).to.equal(nonceBefore + 1);
  });

  it('killed after broadcasting, before recording it: the next instance finds the transaction, sends nothing more', async () => {
    const { key, to, attempt, nonceBefore } = await killedAt('after_broadcast', '12.25');
    // It went out (anvil mined it at once) although the dead process recorded nothing of it.
    expect((await base.receipt(attempt.tx_hash))!.status).to.equal('0x1');
    expect(transferEvents(h, key)).to.deep.equal([]);

    const confirmed = await finish(key);
    expect(confirmed.type).to.equal('transfer.confirmed');
    expect(confirmed.data.txHash).to.equal(attempt.tx_hash);
    expect(await base.transfersTo('USDC', to)).to.deep.equal([
      { txHash: attempt.tx_hash, value: units('12.25') },
    ]);
    expect(await base.balance('USDC', to)).to.equal(units('12.25'));
    expect(await attemptRows(h, key)).to.have.length(1);
    expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal([
      'transfer.submitted',
      'transfer.confirmed',
    ]);
    expect(await base.nonce(relayer)).to.equal(nonceBefore + 1);
  });
});
