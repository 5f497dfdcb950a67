import { expect } from 'chai';
import type { EventDataInput } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { actingAs, paymentBody, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

/** The chain-watcher's verdicts, as real events over RabbitMQ, move payments to their final status. */
describe('chain verification verdicts (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({ wallet: true });
  });
  after(async () => h?.close());

  const newPayment = async (overrides: Record<string, unknown> = {}) => {
    const body = paymentBody(shop, { amount: '40', expectedAmount: '40', ...overrides });
    const res = await h.call('POST', '/payments/create-public', { body });
    expect(res.status).to.equal(201);
    return { id: res.body.data.paymentId as string, body };
  };

  const fromChainWatcher = () => ({ producer: 'chain-watcher' as const, merchantId: shop.merchantId });
  const verify = (p: { id: string; body: Record<string, any> }, receivedAmount: string, times = 1) =>
    h.publish(
      'chain.payment.verified',
      {
        paymentId: p.id,
        txHash: p.body.txHash,
        chainId: p.body.chainId,
        token: 'USDC',
        fromAddress: p.body.fromAddress,
        toAddress: p.body.toAddress,
        receivedAmount,
        blockNumber: 120,
        blockTimestamp: new Date().toISOString(),
        confirmations: 1,
      },
      { ...fromChainWatcher(), times },
    );
  const reject = (data: EventDataInput<'chain.payment.rejected'>) =>
    h.publish('chain.payment.rejected', data, fromChainWatcher());

  const detail = async (id: string) => (await h.call('GET', `/payments/api/${id}`, actingAs(shop))).body.data;

  it('completes on chain.payment.verified, records an overpayment, and publishes payment.completed once', async () => {
    const observer = await h.observe(['payment.completed']);
    try {
      const p = await newPayment();
      // Delivered three times, as at-least-once delivery may: one completion, one event.
      await verify(p, '40.5', 3);
      const d = await waitFor(async () => {
        const v = await detail(p.id);
        return v.status === 'completed' ? v : undefined;
      });
      expect(d).to.include({
        amount: '40.000000',
        received_amount: '40.500000',
        surplus_amount: '0.500000',
        cctp_fee_amount: null,
      });
      const completed = await waitFor(async () => observer.messages.find((m) => m.data.payment_id === p.id));
      expect(completed.data).to.include({
        amount: '40.000000',
        received_amount: '40.500000',
        surplus_amount: '0.500000',
      });
      // A later, unrelated completion proves no duplicate was still on its way.
      const q = await newPayment();
      await verify(q, '40');
      await waitFor(async () => observer.messages.some((m) => m.data.payment_id === q.id));
      expect(observer.messages.filter((m) => m.data.payment_id === p.id)).to.have.length(1);
    } finally {
      await observer.close();
    }
  });

  it("keeps the checkout page's language and carries it on payment.completed, never on the webhook data", async () => {
    const observer = await h.observe(['payment.completed']);
    try {
      const german = await newPayment({ language: 'de' });
      const silent = await newPayment();
      const stored = await h
        .db('payments')
        .whereIn('id', [german.id, silent.id])
        .select('id', 'customer_language');
      expect(Object.fromEntries(stored.map((r) => [r.id, r.customer_language]))).to.deep.equal({
        [german.id]: 'de',
        [silent.id]: null,
      });
      await verify(german, '40');
      await verify(silent, '40');
      const completed = await waitFor(async () => {
        const found = [german, silent].map((p) => observer.messages.find((m) => m.data.payment_id === p.id));
        return found.every(Boolean) ? found : undefined;
      });
      expect(completed[0]!.data.customer_language).to.equal('de');
      // Without a language the event says nothing, and the customer is written to in English.
      expect(completed[1]!.data).not.to.have.property('customer_language');
      // The detail the merchant reads is the spec's: the language is not part of it.
      expect(await detail(german.id)).not.to.have.property('customer_language');
    } finally {
      await observer.close();
    }
  });

  it('refuses a language that is not one of the five', async () => {
    for (const language of ['pt', 'DE', '', 42]) {
      const res = await h.call('POST', '/payments/create-public', {
        body: paymentBody(shop, { amount: '40', expectedAmount: '40', language }),
      });
      expect(res.status, String(language)).to.equal(400);
      expect(res.body.success).to.equal(false);
      expect(res.body.details.map((d: { path: string }) => d.path)).to.include('language');
    }
  });

  it('fails on chain.payment.rejected with the documented reason code and keeps the received amount', async () => {
    const observer = await h.observe(['payment.failed']);
    try {
      const p = await newPayment();
      await reject({
        paymentId: p.id,
        txHash: p.body.txHash as string,
        reason: 'underpaid',
        receivedAmount: '12.25',
        detail: 'received 12.25 USDC of 40',
      });
      const d = await waitFor(async () => {
        const v = await detail(p.id);
        return v.status === 'failed' ? v : undefined;
      });
      expect(d).to.include({
        failure_reason: 'underpaid',
        received_amount: '12.250000',
        surplus_amount: null,
      });
      const failed = await waitFor(async () => observer.messages.find((m) => m.data.payment_id === p.id));
      expect(failed.data).to.include({
        status: 'failed',
        failure_reason: 'underpaid',
        received_amount: '12.250000',
        surplus_amount: null,
      });
    } finally {
      await observer.close();
    }
  });

  it('shows a surplus of 0.000000 for an exact payment', async () => {
    const p = await newPayment();
    await verify(p, '40');
    const d = await waitFor(async () => {
      const v = await detail(p.id);
      return v.status === 'completed' ? v : undefined;
    });
    expect(d).to.include({ received_amount: '40.000000', surplus_amount: '0.000000' });
  });

  it('fails a payment as underpaid when a verdict says less than its amount arrived', async () => {
    const observer = await h.observe(['payment.completed', 'payment.failed']);
    try {
      // The reporter named a tiny expectedAmount: a verifier that believed it must not make 0.02 worth 5.
      const p = await newPayment({ amount: '5', expectedAmount: '0.02' });
      await verify(p, '0.02');
      const d = await waitFor(async () => {
        const v = await detail(p.id);
        return v.status === 'failed' ? v : undefined;
      });
      expect(d).to.include({
        amount: '5.000000',
        failure_reason: 'underpaid',
        received_amount: '0.020000',
        surplus_amount: null,
      });
      const failed = await waitFor(async () => observer.messages.find((m) => m.data.payment_id === p.id));
      expect(failed.type).to.equal('payment.failed');
      expect(failed.data).to.include({ failure_reason: 'underpaid', received_amount: '0.020000' });
      expect(observer.messages.filter((m) => m.type === 'payment.completed' && m.data.payment_id === p.id)).to
        .be.empty;
    } finally {
      await observer.close();
    }
  });

  it('keeps the cross-chain fee the chain-watcher measured', async () => {
    const p = await newPayment();
    await h.publish(
      'chain.payment.verified',
      {
        paymentId: p.id,
        txHash: p.body.txHash,
        chainId: p.body.chainId,
        token: 'USDC',
        fromAddress: p.body.fromAddress,
        toAddress: p.body.toAddress,
        receivedAmount: '40.01',
        cctpFeeAmount: '0.004',
        blockNumber: 120,
        blockTimestamp: new Date().toISOString(),
        confirmations: 1,
      },
      fromChainWatcher(),
    );
    const d = await waitFor(async () => {
      const v = await detail(p.id);
      return v.status === 'completed' ? v : undefined;
    });
    expect(d).to.include({
      received_amount: '40.010000',
      surplus_amount: '0.010000',
      cctp_fee_amount: '0.004000',
    });
  });

  it('ignores a stale verdict for a payment already in a final status', async () => {
    const p = await newPayment();
    await verify(p, '40');
    await waitFor(async () => (await detail(p.id)).status === 'completed');
    await reject({
      paymentId: p.id,
      txHash: p.body.txHash as string,
      reason: 'tx_not_found',
      receivedAmount: null,
      detail: 'late',
    });
    // Followed by a verdict for another payment on the same queue: once that one lands, the stale one was handled.
    const q = await newPayment();
    await verify(q, '40');
    await waitFor(async () => (await detail(q.id)).status === 'completed');
    expect((await detail(p.id)).status).to.equal('completed');
    expect(await h.bus.peekDeadLetters('payments')).to.have.length(0);
  });
});
