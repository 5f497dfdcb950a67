import { expect } from 'chai';
import { CheckoutSessionCompletedData, PaymentCompletedData } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { completePayment, failPayment } from '../../src/payments/payment-state.js';
import { actingAs, paymentBody, startHarness, type Harness, type TestMerchant } from '../support/harness.js';
import { proveSession } from '../support/session-proof.js';

describe('payments for checkout sessions (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({ wallet: true });
  });
  after(async () => h?.close());

  const newSession = async (body: Record<string, unknown> = {}) => {
    const res = await h.call('POST', '/checkout/sessions', {
      ...actingAs(shop),
      body: { return_url: 'https://shop.example/r', ...body },
    });
    expect(res.status).to.equal(201);
    return res.body.data.id as string;
  };
  const pay = (overrides: Record<string, unknown>) =>
    h.call('POST', '/payments/create-public', {
      body: proveSession(paymentBody(shop, { amount: '42', expectedAmount: '42', ...overrides })),
    });
  const getSession = async (id: string) =>
    (await h.call('GET', `/checkout/sessions/${id}`, actingAs(shop))).body.data;

  it('links a payment and shows it on the session', async () => {
    const sessionId = await newSession({ amount: 42 });
    const res = await pay({ sessionId });
    expect(res.status).to.equal(201);
    const session = await getSession(sessionId);
    expect(session.status).to.equal('open');
    const row = await h.db('payments').where({ id: res.body.data.paymentId }).first();
    expect(session.payment).to.deep.equal({
      id: res.body.data.paymentId,
      status: 'pending',
      tx_hash: row.tx_hash,
      amount: '42.000000',
      is_cross_chain: false,
    });
  });

  it('lets exactly one of 20 racing payments take a session; the others get 409', async () => {
    const sessionId = await newSession({ amount: 42 });
    const results = await Promise.all(Array.from({ length: 20 }, () => pay({ sessionId })));
    const winners = results.filter((r) => r.status === 201);
    const losers = results.filter((r) => r.status === 409);
    expect(winners).to.have.length(1);
    expect(losers).to.have.length(19);
    for (const l of losers)
      expect(l.body).to.deep.include({ success: false, error: 'Checkout session already has a payment' });
    const linked = await h.db('payments').where({ session_id: sessionId });
    expect(linked).to.have.length(1);
    expect(linked[0].id).to.equal(winners[0]!.body.data.paymentId);
    expect((await getSession(sessionId)).payment.id).to.equal(winners[0]!.body.data.paymentId);
    const created = await h
      .db('outbox')
      .where({ type: 'payment.created' })
      .whereRaw(`envelope->'data'->>'sessionId' = ?`, [sessionId]);
    expect(created).to.have.length(1);
  });

  it('returns the existing payment for a known txHash with another session, linking nothing', async () => {
    const first = await pay({ sessionId: await newSession({ amount: 42 }) });
    const second = await newSession({ amount: 42 });
    const tx = (await h.db('payments').where({ id: first.body.data.paymentId }).first()).tx_hash;
    const again = await pay({ txHash: tx, sessionId: second, reference: 'other' });
    expect(again.status).to.equal(200);
    expect(again.body.data.paymentId).to.equal(first.body.data.paymentId);
    expect((await getSession(second)).payment).to.equal(null);
  });

  it('answers a resubmission from the existing payment when its session could not take it any more', async () => {
    const create = (body: Record<string, unknown>) => h.call('POST', '/payments/create-public', { body });
    const sessionId = await newSession({ amount: 42 });
    const failedBody = proveSession(paymentBody(shop, { amount: '42', expectedAmount: '42', sessionId }));
    const failed = await create(failedBody);
    await failPayment(h.context, failed.body.data.paymentId, 'Transaction reverted');
    const paidBody = proveSession(paymentBody(shop, { amount: '42', expectedAmount: '42', sessionId }));
    const paid = await create(paidBody);
    expect(paid.status).to.equal(201);
    await completePayment(h.context, paid.body.data.paymentId, { receivedAmount: '42' });
    expect((await getSession(sessionId)).status).to.equal('complete');
    // A new payment for the session is refused now; the two known transactions are answered as recorded.
    expect((await pay({ sessionId })).status).to.equal(409);
    const again = await create(paidBody);
    expect(again.status).to.equal(200);
    expect(again.body.data).to.deep.equal({
      paymentId: paid.body.data.paymentId,
      status: 'completed',
      isCrossChain: false,
    });
    const failedAgain = await create(failedBody);
    expect(failedAgain.status).to.equal(200);
    expect(failedAgain.body.data).to.deep.equal({
      paymentId: failed.body.data.paymentId,
      status: 'failed',
      isCrossChain: false,
    });
  });

  it('checks the session: amount, currency, state and expiry', async () => {
    const fixed = await newSession({ amount: 42 });
    const wrongAmount = await pay({ sessionId: fixed, amount: '41.99', expectedAmount: '41.99' });
    expect(wrongAmount.status).to.equal(400);
    expect(wrongAmount.body.details.map((d: { path: string }) => d.path)).to.deep.equal([
      'amount',
      'expectedAmount',
    ]);
    const underpaid = await pay({ sessionId: fixed, expectedAmount: '1' });
    expect(underpaid.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['expectedAmount']);
    const eurc = await newSession({ amount: 42, currency: 'EURC' });
    const wrongToken = await pay({ sessionId: eurc });
    expect(wrongToken.status).to.equal(400);
    expect(wrongToken.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['token']);
    expect(
      (await pay({ sessionId: await newSession({}), amount: '0.01', expectedAmount: '0.01' })).status,
    ).to.equal(201);
    const due = await newSession({ amount: 42 });
    await h
      .db('checkout_sessions')
      .where({ id: due })
      .update({ expires_at: h.db.raw(`now() - interval '1 second'`) });
    const late = await pay({ sessionId: due });
    expect(late.status).to.equal(409);
    expect(late.body.error).to.equal('Checkout session has expired');
    const stranger = await h.seedMerchant({});
    const foreign = await h.call('POST', '/checkout/sessions', {
      ...actingAs(stranger),
      body: { return_url: 'https://x.example/r' },
    });
    const theirs = await pay({ sessionId: foreign.body.data.id });
    expect(theirs.status).to.equal(404);
    expect(theirs.body.error).to.equal('Checkout session not found');
  });

  it('completing the payment completes the session and publishes payment.completed and checkout.session.completed', async () => {
    const observer = await h.observe(['payment.completed', 'checkout.session.completed']);
    try {
      const sessionId = await newSession({ amount: 42 });
      const paymentId = (await pay({ sessionId, reference: 'order-9', metadata: { cart: 3 } })).body.data
        .paymentId as string;
      await completePayment(h.context, paymentId, { receivedAmount: '42' });
      const completed = await waitFor(async () =>
        observer.messages.find((m) => m.type === 'payment.completed' && m.data.payment_id === paymentId),
      );
      expect(PaymentCompletedData.parse(completed.data)).to.deep.include({
        status: 'completed',
        amount: '42.000000',
        currency: 'USDC',
        reference: 'order-9',
        merchant_id: shop.merchantId,
        source_chain: 'BASE',
        destination_chain: null,
      });
      const sessionDone = await waitFor(async () =>
        observer.messages.find(
          (m) => m.type === 'checkout.session.completed' && m.data.sessionId === sessionId,
        ),
      );
      expect(CheckoutSessionCompletedData.parse(sessionDone.data)).to.deep.include({
        paymentId,
        merchantId: shop.merchantId,
        amount: '42.000000',
      });
      const session = await getSession(sessionId);
      expect(session.status).to.equal('complete');
      expect(session.payment).to.include({ id: paymentId, status: 'completed' });
      const detail = await h.call('GET', `/payments/api/${paymentId}`, actingAs(shop));
      expect(detail.body.data).to.include({ status: 'completed', received_amount: '42.000000' });
    } finally {
      await observer.close();
    }
  });

  it('a failed payment frees its session for another attempt', async () => {
    const sessionId = await newSession({ amount: 42 });
    const first = (await pay({ sessionId })).body.data.paymentId as string;
    await failPayment(h.context, first, 'Transaction reverted');
    expect((await getSession(sessionId)).payment).to.equal(null);
    const second = await pay({ sessionId });
    expect(second.status).to.equal(201);
    expect((await getSession(sessionId)).payment.id).to.equal(second.body.data.paymentId);
  });

  it('a session with a payment under way is not expired by the sweeper', async () => {
    const sessionId = await newSession({ amount: 42 });
    await pay({ sessionId });
    await h
      .db('checkout_sessions')
      .where({ id: sessionId })
      .update({ expires_at: h.db.raw(`now() - interval '1 second'`) });
    const control = await newSession({});
    await h
      .db('checkout_sessions')
      .where({ id: control })
      .update({ expires_at: h.db.raw(`now() - interval '1 second'`) });
    await waitFor(() => h.db('checkout_sessions').where({ id: control, status: 'expired' }).first());
    expect((await getSession(sessionId)).status).to.equal('open');
  });
});
