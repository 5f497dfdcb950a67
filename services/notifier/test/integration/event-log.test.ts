import { expect } from 'chai';
import { MerchantEvent } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { failedPaymentData, paymentData, refundData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

const keysOf = (o: object) => Object.keys(o).sort();

/** GET /events/api/list (key) and GET /events (bearer): the merchant's events and their deliveries. */
describe("the merchant's event list", function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;
  let merchantId: string;
  let endpointId: string;
  let completed: string;
  let failed: string;
  let refund: string;
  let completedAt: string;

  before(async () => {
    rx = await Receiver.start();
    rx.on('/ok', () => ({ status: 200 }));
    h = await startHarness({ env: { WEBHOOK_RETRY_SCHEDULE: '0' } });
    merchantId = await h.merchant();
    ({ id: endpointId } = await h.endpoint(merchantId, rx.url('/ok'), [
      'payment.completed',
      'refund.created',
    ]));
    const pay = paymentData(merchantId);
    // A few milliseconds apart, so that newest first is one order.
    const apart = () => new Promise((resolve) => setTimeout(resolve, 5));
    const first = await h.publish('payment.completed', pay);
    completed = first.id;
    completedAt = first.occurredAt;
    await apart();
    // No endpoint takes payment.failed: it is listed all the same, with no delivery.
    failed = (await h.publish('payment.failed', failedPaymentData(merchantId, 'expired'))).id;
    await apart();
    refund = (await h.publish('refund.created', refundData(merchantId, pay.payment_id))).id;
    for (const e of [completed, refund])
      await waitFor(async () => (await h.deliveryStatus(e, endpointId)) === 'succeeded');
    await waitFor(() => h.db('webhook_events').where({ id: failed }).first());
    // A test send is no event of the merchant's business.
    expect(
      (await h.call('POST', `/merchant-webhooks/api/${endpointId}/test`, { merchantId })).status,
    ).to.equal(200);
    // Another merchant's event.
    const other = await h.merchant();
    await h.publish('payment.completed', paymentData(other));
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  const list = (query = '', caller: 'api_key' | 'user' = 'api_key', who = merchantId) =>
    h.call('GET', `${caller === 'user' ? '/events' : '/events/api/list'}${query}`, {
      merchantId: who,
      caller,
    });

  it('lists the events newest first with the body data sent and each delivery', async () => {
    const res = await list();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ total: 3, limit: 50, offset: 0 });
    const events = res.body.data.events as MerchantEvent[];
    expect(events.map((e) => [e.id, e.type])).to.deep.equal([
      [refund, 'refund.created'],
      [failed, 'payment.failed'],
      [completed, 'payment.completed'],
    ]);
    for (const e of events) expect(keysOf(e)).to.deep.equal(keysOf(MerchantEvent.shape));
    const [refundEvent, failedEvent, completedEvent] = events;
    expect(completedEvent!.created_at).to.equal(new Date(completedAt).toISOString());
    const sent = rx.byEvent(completed)[0]!;
    expect(completedEvent!.data).to.deep.equal(JSON.parse(sent.raw).data);
    expect(completedEvent!.deliveries).to.deep.equal([
      {
        delivery_id: completedEvent!.deliveries[0]!.delivery_id,
        endpoint_id: endpointId,
        endpoint_url: rx.url('/ok'),
        trigger: 'event',
        status: 'succeeded',
        attempts: 1,
      },
    ]);
    expect(failedEvent!.deliveries).to.deep.equal([]);
    expect(failedEvent!.data).to.include({ status: 'failed' });
    expect(refundEvent!.deliveries.map((d) => d.status)).to.deep.equal(['succeeded']);
  });

  it('filters by type and pages, and refuses what it does not know', async () => {
    const byType = await list('?type=payment.failed');
    expect(byType.body.data.events.map((e: MerchantEvent) => e.id)).to.deep.equal([failed]);
    expect(byType.body.data.total).to.equal(1);
    const page = await list('?limit=1&offset=1');
    expect(page.body.data).to.include({ total: 3, limit: 1, offset: 1 });
    expect(page.body.data.events.map((e: MerchantEvent) => e.id)).to.deep.equal([failed]);
    for (const bad of ['?type=payment.created', '?limit=0', '?limit=201', '?offset=-1']) {
      const res = await list(bad);
      expect(res.status, bad).to.equal(400);
      expect(res.body.success).to.equal(false);
    }
  });

  it('answers the dashboard twin the same, each route only its own caller, one merchant only', async () => {
    expect((await list('', 'user')).body).to.deep.equal((await list()).body);
    expect((await h.call('GET', '/events', { merchantId, caller: 'api_key' })).status).to.equal(403);
    expect((await h.call('GET', '/events/api/list', { merchantId, caller: 'user' })).status).to.equal(403);
    const mine = [completed, failed, refund];
    const someoneElse = await h.merchant();
    const theirs = await list('', 'api_key', someoneElse);
    expect(theirs.body.data.total).to.equal(0);
    expect(theirs.body.data.events.map((e: MerchantEvent) => e.id)).to.not.include.members(mine);
  });
});
