import { expect } from 'chai';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { Customer } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';

describe('two chain-watcher replicas on one database and one queue (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(45_000);
  let devnet: Devnet;
  let first: Harness;
  let second: Harness;
  let shop: Merchant;
  const payers: Customer[] = [];

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 4 });
    // Small batches, so that both replicas get a share of the leases.
    const env = { VERIFY_BATCH_SIZE: '3', VERIFY_CONCURRENCY: '2' };
    first = await startHarness({ registry: devnet.registry(), env });
    second = await startHarness({
      registry: devnet.registry(),
      env,
      share: first,
    });
    shop = await first.createMerchant('BASE');
    for (const account of devnet.customers) payers.push(new Customer(devnet.chain('BASE'), account));
  });
  after(async () => {
    for (const p of payers) p.destroy();
    await second?.close();
    await first?.close();
    await devnet?.stop();
  });

  it('verifies 20 payments with each verdict published exactly once', async () => {
    const payments: Array<{ paymentId: string; amount: string }> = [];
    const sent: Array<{ txHash: string; amount: string; from: string }> = [];
    for (let i = 0; i < 20; i++) {
      const payer = payers[i % payers.length]!;
      const amount = `${i + 1}.${String(i).padStart(2, '0')}`;
      sent.push({ txHash: await payer.pay('USDC', shop.address, amount), amount, from: payer.address });
    }
    for (const [i, s] of sent.entries()) {
      // Every other announcement is delivered twice, as a broker may redeliver it.
      const paymentId = await first.publishPayment({
        merchant: shop,
        txHash: s.txHash,
        amount: s.amount,
        fromAddress: s.from,
        copies: i % 2 === 0 ? 2 : 1,
      });
      payments.push({ paymentId, amount: s.amount });
    }

    const ids = new Set(payments.map((p) => p.paymentId));
    const verdicts = () => first.events.messages.filter((e) => ids.has(e.data?.paymentId));
    await waitFor(() => new Set(verdicts().map((e) => e.data.paymentId)).size === 20, 20_000, '20 verdicts');
    // Everything either replica wrote to its outbox is out; then the queue is drained to the end.
    await waitFor(
      async () => (await first.db('outbox').whereNull('published_at').count('* as n'))[0]!.n === '0',
    );
    await first.events.drain();
    await second.events.drain();

    for (const observed of [first.events.messages, second.events.messages]) {
      for (const { paymentId, amount } of payments) {
        const about = observed.filter((e) => e.data?.paymentId === paymentId);
        expect(about, paymentId).to.have.length(1);
        expect(about[0]!.type).to.equal('chain.payment.verified');
        expect(Number(about[0]!.data.receivedAmount)).to.equal(Number(amount));
      }
    }
    const rows = await first
      .db('verifications')
      .whereIn('payment_id', [...ids])
      .select('status');
    expect(rows.map((r) => r.status)).to.deep.equal(Array(20).fill('verified'));
    expect(
      await first
        .db('tx_claims')
        .whereIn('payment_id', [...ids])
        .count('* as n'),
    ).to.deep.equal([{ n: '20' }]);

    const shares = await Promise.all(
      [first, second].map(async (h) =>
        metricValue(await h.metrics(), 'chain_verdicts_total', { chain: 'BASE', verdict: 'verified' }),
      ),
    );
    expect(shares[0]! + shares[1]!).to.equal(20);
    console.log(`      (verdicts per replica: ${shares.join(' + ')})`);
  });
});
