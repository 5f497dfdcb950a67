import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { InternalPayment } from '@stablepay/contracts';
import { closedPortUrl } from '../support/closed-port.js';
import {
  newMerchant,
  randomAddress,
  randomTxHash,
  startHarness,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';

/**
 * payment.completed can reach the refunds service long after the payment completed (the message
 * retry delays after an outage); a refund of that payment asks the payments service meanwhile.
 */
describe('refunds of payments not projected yet (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = newMerchant();
  });
  after(async () => h?.close());

  /** A payment the payments service holds and the refunds service has not heard of. */
  const atPayments = (merchant: TestMerchant, over: Partial<InternalPayment> = {}): InternalPayment => {
    const p: InternalPayment = {
      payment_id: randomUUID(),
      merchant_id: merchant.merchantId,
      amount: '80.000000',
      currency: 'USDC',
      status: 'completed',
      tx_hash: randomTxHash(),
      from_address: randomAddress(),
      source_chain: 'BASE',
      destination_chain: null,
      is_cross_chain: false,
      created_at: new Date(Date.now() - 60_000).toISOString(),
      completed_at: new Date().toISOString(),
      ...over,
    };
    h.payments.setPayment(p);
    return p;
  };
  const refund = (merchant: TestMerchant, paymentId: string, amount = '30') =>
    h.call('POST', '/refunds/api/create', {
      ...merchant,
      body: { paymentId, amount, reason: 'requested_by_customer' },
    });
  const projected = (paymentId: string) =>
    h.db('refundable_payments').where({ payment_id: paymentId }).first();
  const refundsOf = async (paymentId: string) =>
    Number((await h.db('refunds').where({ payment_id: paymentId }).count('* as n').first())!.n);

  it('refunds a completed payment the projection lacks, projecting it from the payments service', async () => {
    const p = atPayments(shop);
    const res = await refund(shop, p.payment_id);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({ payment_id: p.payment_id, amount: '30.000000', status: 'pending' });
    const row = await projected(p.payment_id);
    expect(row).to.include({ merchant_id: shop.merchantId, status: 'completed', tx_hash: p.tx_hash });
    expect(row.from_address).to.equal(p.from_address);
    expect(new Date(row.completed_at).toISOString()).to.equal(p.completed_at);
    // Known now: the next refund is decided on the projection alone, and the remainder is exact.
    const asked = h.payments.requestsFor(p.payment_id).length;
    expect((await refund(shop, p.payment_id, '50')).status).to.equal(201);
    const over = await refund(shop, p.payment_id, '0.000001');
    expect(over.status).to.equal(422);
    expect(over.body.details[0].code).to.equal('payment_fully_refunded');
    expect(h.payments.requestsFor(p.payment_id)).to.have.length(asked);
  });

  it("keeps another merchant's payment not found (404) and projects nothing", async () => {
    const p = atPayments(shop);
    const intruder = newMerchant();
    const res = await refund(intruder, p.payment_id);
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.include({ success: false });
    expect(await projected(p.payment_id)).to.equal(undefined);
    expect((await refund(shop, randomUUID())).status).to.equal(404);
  });

  it('refuses a payment still pending at the payments service (422) and projects nothing', async () => {
    const p = atPayments(shop, { status: 'pending', completed_at: null });
    const res = await refund(shop, p.payment_id);
    expect(res.status).to.equal(422);
    expect(res.body.details[0].code).to.equal('payment_not_completed');
    expect(await projected(p.payment_id)).to.equal(undefined);
    // When it completes, the same request goes through.
    atPayments(shop, { ...p, status: 'completed', completed_at: new Date().toISOString() });
    expect((await refund(shop, p.payment_id)).status).to.equal(201);
  });

  it('answers 503 with Retry-After, not 404, while the payments service cannot answer', async () => {
    const p = atPayments(shop);
    h.payments.failing = true;
    try {
      const res = await refund(shop, p.payment_id);
      expect(res.status).to.equal(503);
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(res.body).to.deep.include({ success: false });
      expect(res.body.error).to.be.a('string');
    } finally {
      h.payments.failing = false;
    }
    expect(await refundsOf(p.payment_id)).to.equal(0);
    expect((await refund(shop, p.payment_id)).status).to.equal(201);
  });

  it('answers 503 when the payments service is not there at all', async () => {
    const down = await startHarness({ PAYMENTS_URL: await closedPortUrl() });
    try {
      const res = await down.call('POST', '/refunds/api/create', {
        ...shop,
        body: { paymentId: randomUUID(), reason: 'other' },
      });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    } finally {
      await down.close();
    }
  });
});
