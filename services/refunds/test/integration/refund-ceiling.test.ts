import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { InternalPayment } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import {
  newMerchant,
  randomAddress,
  randomTxHash,
  startHarness,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';

/**
 * A refund can give back what reached the merchant wallet for a payment, never more: an
 * overpayment's surplus included, and of a payment that failed underpaid, what arrived.
 */
describe('the refund ceiling is what was received (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = newMerchant();
  });
  after(async () => h?.close());

  const create = (body: Record<string, unknown>) =>
    h.call('POST', '/refunds/api/create', { ...shop, body: { reason: 'requested_by_customer', ...body } });

  /** payment.failed as the payments service publishes it. */
  const publishFailed = async (over: Record<string, unknown>) => {
    const id = randomUUID();
    const fromAddress = randomAddress();
    await h.publish(
      'payment.failed',
      {
        payment_id: id,
        merchant_id: shop.merchantId,
        amount: '5.000000',
        currency: 'USDC',
        status: 'failed',
        tx_hash: randomTxHash(),
        from_address: fromAddress,
        to_address: randomAddress(),
        source_chain: 'BASE',
        destination_chain: null,
        is_cross_chain: false,
        customer_email: 'buyer@example.test',
        reference: null,
        metadata: {},
        failure_reason: 'underpaid',
        received_amount: '0.020000',
        surplus_amount: null,
        ...over,
      },
      { producer: 'payments', merchantId: shop.merchantId },
    );
    return { id, fromAddress };
  };

  it("defaults to the payment's amount and lets an overpayment's surplus be refunded, then nothing more", async () => {
    const p = await h.seedPayment(shop, { amount: '10', receivedAmount: '10.500000' });
    const first = await create({ paymentId: p.id });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.data.amount).to.equal('10.000000');
    const surplus = await create({ paymentId: p.id });
    expect(surplus.status, JSON.stringify(surplus.body)).to.equal(201);
    expect(surplus.body.data.amount).to.equal('0.500000');
    const none = await create({ paymentId: p.id, amount: '0.000001' });
    expect(none.status).to.equal(422);
    expect(none.body).to.include({ success: false });
    expect(none.body.details[0]).to.include({ path: 'paymentId', code: 'payment_fully_refunded' });
    expect(none.body.details[0].message).to.contain('10.500000 USDC');
  });

  it('refuses more than was received with 422 naming the amount field and the ceiling', async () => {
    const p = await h.seedPayment(shop, { amount: '10', receivedAmount: '10.500000' });
    const over = await create({ paymentId: p.id, amount: '10.500001' });
    expect(over.status).to.equal(422);
    expect(over.body).to.deep.equal({
      success: false,
      error: 'Refund amount exceeds the refundable amount of the payment',
      details: [
        {
          path: 'amount',
          message: 'At most 10.500000 USDC of this payment can still be refunded',
          code: 'amount_exceeds_refundable',
        },
      ],
    });
    expect((await create({ paymentId: p.id, amount: '10.5' })).status).to.equal(201);
  });

  it('holds a payment projected without a received amount to its amount', async () => {
    const p = await h.seedPayment(shop, { amount: '10' });
    expect((await create({ paymentId: p.id, amount: '10.000001' })).status).to.equal(422);
    expect((await create({ paymentId: p.id })).body.data.amount).to.equal('10.000000');
  });

  it('gives what arrived of an underpaid payment back to its sender, and no more', async () => {
    const { id, fromAddress } = await publishFailed({});
    await waitFor(() => h.db('refundable_payments').where({ payment_id: id }).first());
    const tooMuch = await create({ paymentId: id, amount: '5' });
    expect(tooMuch.status).to.equal(422);
    expect(tooMuch.body.details[0]).to.include({
      path: 'amount',
      code: 'amount_exceeds_refundable',
      message: 'At most 0.020000 USDC of this payment can still be refunded',
    });
    const back = await create({ paymentId: id });
    expect(back.status, JSON.stringify(back.body)).to.equal(201);
    expect(back.body.data).to.include({
      amount: '0.020000',
      destination_address: fromAddress,
      status: 'pending',
    });
    expect((await create({ paymentId: id, amount: '0.000001' })).status).to.equal(422);
  });

  it('projects no other failure: such a payment cannot be refunded', async () => {
    const nothing = await publishFailed({ received_amount: null });
    const elsewhere = await publishFailed({ failure_reason: 'wrong_recipient', received_amount: null });
    // Followed by a refundable one on the same queue: once it lands, the two before were handled.
    const marker = await publishFailed({});
    await waitFor(() => h.db('refundable_payments').where({ payment_id: marker.id }).first());
    for (const p of [nothing, elsewhere]) {
      expect(await h.db('refundable_payments').where({ payment_id: p.id }).first()).to.equal(undefined);
      expect((await create({ paymentId: p.id })).status).to.equal(404);
    }
  });

  it('reads an underpaid payment through from the payments service when payment.failed is late', async () => {
    const p: InternalPayment = {
      payment_id: randomUUID(),
      merchant_id: shop.merchantId,
      amount: '5.000000',
      currency: 'USDC',
      status: 'failed',
      tx_hash: randomTxHash(),
      from_address: randomAddress(),
      source_chain: 'BASE',
      destination_chain: null,
      is_cross_chain: false,
      created_at: new Date().toISOString(),
      completed_at: null,
      received_amount: '1.250000',
      failure_reason: 'underpaid',
      failed_at: new Date().toISOString(),
    };
    h.payments.setPayment(p);
    const res = await create({ paymentId: p.payment_id });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data.amount).to.equal('1.250000');
    const row = await h.db('refundable_payments').where({ payment_id: p.payment_id }).first();
    expect(row).to.include({ status: 'failed', received_amount: '1.250000' });
  });
});
