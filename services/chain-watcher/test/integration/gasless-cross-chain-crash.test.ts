import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import type { Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import { spawnWatcher } from '../support/child.js';
import { eventsAbout, freshWallet, publishAuthorization, signAuthorization } from '../support/gasless.js';
import { startCrossChainGasless, type CrossChainGasless } from '../support/gasless-cross-chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import type { ChainProbe } from '../support/transfers.js';

/**
 * The service killed (SIGKILL) right after the node took the relay's burn, before it was recorded: a
 * fresh instance finds it on the chain and burns nothing more. Killed right after the relay's mint
 * reached a node: a fresh instance mints nothing more and completes the payment at once. The merchant is paid once, the
 * payment verified once.
 */
describe('cross-chain gasless payments survive a killed chain-watcher (child process, anvil + attestation API + PostgreSQL + RabbitMQ)', function () {
  this.timeout(90_000);
  let x: CrossChainGasless;
  let devnet: Devnet;
  let h: Harness;
  let eth: ChainProbe;
  let base: ChainProbe;
  let shop: Merchant;
  let relayEth: string;
  const env = () => x.env;

  before(async () => {
    // No lease override: the default leases (of the gasless row and of its CCTP row) are short and
    // renewed while a replica works, so the next instance takes over a killed one's within seconds.
    x = await startCrossChainGasless();
    ({ devnet, h, eth, base, shop, relayEth } = x);
    // From here on only the processes each test starts consume the queue.
    await h.service.stop();
  });
  after(async () => x?.close());

  const killedAt = async (
    point: 'burn_broadcast' | 'mint_broadcast',
    extraEnv: Record<string, string> = {},
  ) => {
    const payer = freshWallet();
    await devnet.fund('ETH', payer.address, { USDC: units('20') });
    const authorization = await signAuthorization(eth, {
      signer: payer,
      to: relayEth,
      value: units('10.02'),
    });
    const child = spawnWatcher({
      registry: devnet.registry(),
      databaseUrl: h.databaseUrl,
      amqpUrl: h.amqpUrl,
      prefix: h.prefix,
      env: { ...env(), ...extraEnv, GASLESS_CRASH_POINT: point },
    });
    try {
      const paymentId = await publishAuthorization(h, shop, authorization, {
        amount: '10.000000',
        networkFee: '0.010000',
        cctpFee: '0.010000',
        source: { chainId: devnet.chain('ETH').chainId, blockchain: 'ETH' },
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

  /** A fresh instance on the same database and queue finishes what the dead one left, once. */
  const finishOnce = async (paymentId: string, before: bigint, extraEnv: Record<string, string> = {}) => {
    const fresh = await startHarness({
      registry: devnet.registry(),
      env: { ...env(), ...extraEnv },
      share: h,
    });
    // Blocks go on being made, as on a real chain: a mint that was the last transaction gets deep enough.
    const blocks = setInterval(() => void devnet.mine('BASE', 1).catch(() => undefined), 200);
    try {
      const verdict = await h.verdict(paymentId, 60_000);
      expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
      await waitFor(
        async () =>
          (await h.db('gasless_payments').where({ payment_id: paymentId }).first()).step === 'handed_over',
      );
    } finally {
      clearInterval(blocks);
      await fresh.close();
    }
    const txs = await h.db('gasless_relay_transactions').where({ payment_id: paymentId });
    const count = (action: string) => txs.filter((t) => t.action === action).length;
    expect([count('submit'), count('burn')]).to.deep.equal([1, 1]);
    expect(count('mint')).to.be.at.most(1);
    const received = (await base.balance('USDC', shop.address)) - before;
    expect(received >= units('10') && received < units('20')).to.equal(true);
    const verdicts = eventsAbout(h, paymentId).filter((e) => e.type === 'chain.payment.verified');
    expect(verdicts).to.have.length(1);
  };

  it('killed after the burn reached a node, before recording it: the next instance burns nothing more', async () => {
    const before = await base.balance('USDC', shop.address);
    const paymentId = await killedAt('burn_broadcast');
    const [burn] = await h.db('gasless_relay_transactions').where({ payment_id: paymentId, action: 'burn' });
    expect(burn.broadcast_at).to.equal(null);
    expect((await eth.receipt(burn.tx_hash))!.status).to.equal('0x1');
    await finishOnce(paymentId, before);
  });

  it('killed right after the mint reached a node: the next instance mints nothing more and completes the payment promptly', async () => {
    const before = await base.balance('USDC', shop.address);
    // Production pacing: the payment's CCTP row backs off up to a minute while something is awaited.
    const slow = { CCTP_MAX_BACKOFF_MS: '60000' };
    const paymentId = await killedAt('mint_broadcast', slow);
    const [mint] = await h.db('gasless_relay_transactions').where({ payment_id: paymentId, action: 'mint' });
    expect(mint.broadcast_at).to.equal(null);
    // As a minute's wait for the attestation leaves it in production: its next look a minute away.
    await h
      .db('cctp_payments')
      .where({ payment_id: paymentId })
      .update({ next_check_at: h.db.raw(`now() + interval '60 seconds'`), backoff_step: 12 });
    const restarted = Date.now();
    await finishOnce(paymentId, before, slow);
    const took = Date.now() - restarted;
    const txs = await h.db('gasless_relay_transactions').where({ payment_id: paymentId, action: 'mint' });
    expect(txs).to.have.length(1);
    const cctp = await h.db('cctp_payments').where({ payment_id: paymentId }).first();
    expect([cctp.step, cctp.mint_tx_hash]).to.deep.equal(['done', mint.tx_hash]);
    // Completed by the restart's first looks, not by the next pass of a grown back-off.
    expect(took, `completed ${took} ms after the restart`).to.be.below(15_000);
  });
});
