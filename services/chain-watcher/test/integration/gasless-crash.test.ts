import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import { spawnWatcher } from '../support/child.js';
import { eventsAbout, freshWallet, publishAuthorization, signAuthorization } from '../support/gasless.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys } from '../support/transfers.js';

/**
 * The service killed (SIGKILL, nothing flushed) where a naive relay loses or repeats a customer's
 * payment: after signing and storing the submission but before broadcasting it, and after
 * broadcasting it but before recording that. A fresh instance finishes the job: one transfer on the
 * chain, one chain.payment.relayed, one verdict.
 */
describe('gasless submissions survive a killed chain-watcher (child process, anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;
  let relayer: string;
  const env = (devnet: Devnet) => ({
    RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
    TRANSFER_POLL_MS: '50',
    TRANSFER_MAX_BACKOFF_MS: '300',
    // No lease override: the default lease is short (renewed while a replica works on a row), so the
    // next instance takes over a killed one's rows within seconds.
  });

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 0 });
    h = await startHarness({ registry: devnet.registry(), env: env(devnet) });
    base = new ChainProbe(devnet.chain('BASE'));
    relayer = devnet.relayers.BASE!.address;
    shop = await h.createMerchant('BASE');
    // From here on only the processes each test starts consume the queue.
    await h.service.stop();
  });
  after(async () => {
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const killedAt = async (point: 'submission_signed' | 'submission_broadcast', amount: string) => {
    const payer = freshWallet();
    await devnet.fund('BASE', payer.address, { USDC: units('50') });
    const authorization = await signAuthorization(base, {
      signer: payer,
      to: shop.address,
      value: units(amount),
    });
    const nonceBefore = await base.nonce(relayer);
    const child = spawnWatcher({
      registry: devnet.registry(),
      databaseUrl: h.databaseUrl,
      amqpUrl: h.amqpUrl,
      prefix: h.prefix,
      env: { ...env(devnet), GASLESS_CRASH_POINT: point },
    });
    try {
      const paymentId = await publishAuthorization(h, shop, authorization);
      const ended = await Promise.race([
        child.exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`child did not crash:\n${child.output()}`)), 30_000),
        ),
      ]);
      expect(ended.signal, child.output()).to.equal('SIGKILL');
      const [submission, ...more] = await h.db('gasless_relay_transactions').where({ payment_id: paymentId });
      expect(more).to.deep.equal([]);
      expect(submission.broadcast_at).to.equal(null);
      return { paymentId, submission, nonceBefore };
    } finally {
      child.kill();
    }
  };

  /** A fresh instance on the same database and queue finishes what the dead one left. */
  const finish = async (paymentId: string) => {
    const fresh = await startHarness({ registry: devnet.registry(), env: env(devnet), share: h });
    try {
      const verdict = await h.verdict(paymentId, 20_000);
      await waitFor(
        async () => (await h.db('outbox').whereNull('published_at').count('* as n'))[0]!.n === '0',
      );
      await h.events.drain();
      return verdict;
    } finally {
      await fresh.close();
    }
  };

  const expectOnce = async (paymentId: string, txHash: string, amount: string) => {
    expect(
      (await base.transfersTo('USDC', shop.address)).filter((t) => t.txHash.toLowerCase() === txHash),
    ).to.deep.equal([{ txHash, value: units(amount) }]);
    expect(await h.db('gasless_relay_transactions').where({ payment_id: paymentId })).to.have.length(1);
    const about = eventsAbout(h, paymentId);
    expect(about.map((e) => e.type)).to.deep.equal(['chain.payment.relayed', 'chain.payment.verified']);
    expect(about[0]!.data.txHash).to.equal(txHash);
  };

  it('killed after signing, before broadcasting: the stored bytes are broadcast by the next instance, once', async () => {
    const { paymentId, submission, nonceBefore } = await killedAt('submission_signed', '7.5');
    expect(Number(submission.relayer_nonce)).to.equal(nonceBefore);
    expect(await base.nonce(relayer, 'pending')).to.equal(nonceBefore);

    const verdict = await finish(paymentId);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    expect(verdict.data.txHash).to.equal(submission.tx_hash); // the same raw bytes
    await expectOnce(paymentId, submission.tx_hash, '7.5');
    expect(await base.nonce(relayer)).to.equal(nonceBefore + 1);
  });

  it('killed after broadcasting, before recording it: the next instance finds the transaction, sends nothing more', async () => {
    const { paymentId, submission, nonceBefore } = await killedAt('submission_broadcast', '12.25');
    // It went out (anvil mined it at once) although the dead process recorded nothing of it.
    expect((await base.receipt(submission.tx_hash))!.status).to.equal('0x1');
    expect(eventsAbout(h, paymentId)).to.deep.equal([]);

    const verdict = await finish(paymentId);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    expect(verdict.data.txHash).to.equal(submission.tx_hash);
    await expectOnce(paymentId, submission.tx_hash, '12.25');
    expect(await base.nonce(relayer)).to.equal(nonceBefore + 1);
  });
});
