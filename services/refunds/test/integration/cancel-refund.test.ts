import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import {
  createRefund,
  newMerchant,
  refundRow,
  startHarness,
  waitForMessage,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';

describe('POST /refunds/api/:id/cancel (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = newMerchant();
  });
  after(async () => h?.close());

  const cancel = (id: string, merchant = shop) =>
    h.call('POST', `/refunds/api/${id}/cancel`, { ...merchant });

  it('cancels a pending refund, publishes refund.cancelled and frees the amount', async () => {
    const observer = await h.observe(['refund.cancelled']);
    try {
      const p = await h.seedPayment(shop, { amount: '30' });
      const id = await createRefund(h, p);
      const res = await cancel(id);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ success: true });
      const detail = (await h.call('GET', `/refunds/api/${id}`, { ...shop })).body.data;
      expect(detail.status).to.equal('cancelled');
      const event = await waitForMessage(observer, id, 'refund.cancelled');
      expect(event.data).to.deep.include({
        refund_id: id,
        status: 'cancelled',
        amount: '30.000000',
        tx_hash: null,
      });
      // A cancelled refund no longer counts against the payment.
      const replacement = await createRefund(h, p);
      expect((await refundRow(h, replacement)).amount).to.equal('30.000000');
    } finally {
      await observer.close();
    }
  });

  it('refuses to cancel twice with 409', async () => {
    const id = await createRefund(h, await h.seedPayment(shop));
    expect((await cancel(id)).status).to.equal(200);
    const again = await cancel(id);
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.equal({
      success: false,
      error: 'Refund is cancelled and can no longer be cancelled',
      details: [
        { path: 'id', message: 'Only a pending refund can be cancelled', code: 'refund_not_pending' },
      ],
    });
    expect(
      await h
        .db('outbox')
        .where({ type: 'refund.cancelled' })
        .whereRaw("envelope->'data'->>'refund_id' = ?", [id]),
    ).to.have.length(1);
  });

  it("answers 404 for another merchant's refund and leaves it pending; 400 for a malformed id", async () => {
    const id = await createRefund(h, await h.seedPayment(shop));
    expect((await cancel(id, newMerchant())).status).to.equal(404);
    expect((await cancel(randomUUID())).status).to.equal(404);
    expect((await cancel('123')).status).to.equal(400);
    expect((await refundRow(h, id)).status).to.equal('pending');
  });

  it('lets exactly one of many concurrent cancels win', async () => {
    const id = await createRefund(h, await h.seedPayment(shop));
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => cancel(id)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(1);
    expect(statuses.filter((s) => s === 409)).to.have.length(7);
  });
});
