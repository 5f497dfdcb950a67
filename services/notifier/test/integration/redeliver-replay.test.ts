import { expect } from 'chai';
import { WebhookRedeliverResponse, WebhookReplayResponse } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { failedPaymentData, paymentData, refundData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver, signatureMatches } from '../support/receiver.js';

const API = '/merchant-webhooks/api';

describe('redelivery and replay', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness({ env: { WEBHOOK_RETRY_SCHEDULE: '0' } });
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  it('redelivers a logged delivery: same event id and body, fresh signature, new log rows', async () => {
    const merchantId = await h.merchant();
    let down = true;
    rx.on('/redeliver', () => (down ? { status: 500 } : { status: 200 }));
    const { id, secret } = await h.endpoint(merchantId, rx.url('/redeliver'), ['payment.completed']);
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(eventId, id)) === 'failed');
    const [failedLog] = (await h.call('GET', `${API}/${id}/logs`, { merchantId })).body.data.logs;

    down = false;
    const res = await h.call('POST', `${API}/${id}/deliveries/${failedLog.id}/redeliver`, { merchantId });
    expect(res.status).to.equal(202);
    const queued = WebhookRedeliverResponse.parse(res.body).data;
    expect(queued).to.include({ event_id: eventId, status: 'pending' });
    await waitFor(
      async () =>
        (await h.db('webhook_attempts').where({ id: queued.delivery_id }).first())?.status === 'succeeded',
    );
    const [first, second] = rx.byEvent(eventId);
    expect(second!.raw).to.equal(first!.raw);
    expect(signatureMatches(secret, second!)).to.equal(true);
    const logs = (await h.call('GET', `${API}/${id}/logs`, { merchantId })).body.data.logs;
    expect(logs.map((l: any) => [l.id, l.status, l.trigger])).to.deep.equal([
      [queued.delivery_id, 'succeeded', 'redeliver'],
      [failedLog.id, 'failed', 'event'],
    ]);
    const unknown = await h.call('POST', `${API}/${id}/deliveries/${eventId}/redeliver`, { merchantId });
    expect(unknown.status).to.equal(404);
  });

  it('replays what the endpoint has not received since a time, once, and validates `since`', async () => {
    const merchantId = await h.merchant();
    let down = true;
    rx.on('/replay', () => (down ? { status: 500 } : { status: 200 }));
    const { id } = await h.endpoint(merchantId, rx.url('/replay'), ['payment.completed', 'refund.completed']);
    const pay = paymentData(merchantId);
    const since = new Date(Date.now() - 1000).toISOString();
    const failedIds = [
      (await h.publish('payment.completed', pay)).id,
      (await h.publish('refund.completed', refundData(merchantId, pay.payment_id))).id,
    ];
    const { id: ignoredType } = await h.publish('payment.failed', failedPaymentData(merchantId, 'expired'));
    for (const e of failedIds) await waitFor(async () => (await h.deliveryStatus(e, id)) === 'failed');
    down = false;
    const { id: delivered } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(delivered, id)) === 'succeeded');
    // While disabled, events pass the endpoint by; replay picks them up too.
    await h.call('PUT', `${API}/${id}`, { merchantId, body: { is_active: false } });
    const { id: missed } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(() => h.db('webhook_events').where({ id: missed }).first());
    const refused = await h.call('POST', `${API}/${id}/replay`, { merchantId, body: { since } });
    expect(refused.status).to.equal(409);
    await h.call('PUT', `${API}/${id}`, { merchantId, body: { is_active: true } });

    const res = await h.call('POST', `${API}/${id}/replay`, { merchantId, body: { since } });
    expect(res.status).to.equal(202);
    expect(WebhookReplayResponse.parse(res.body).data).to.deep.equal({ queued: 3, since });
    await waitFor(
      async () =>
        (await h.db('webhook_deliveries').where({ endpoint_id: id, trigger: 'replay', status: 'succeeded' }))
          .length === 3,
    );
    for (const e of failedIds) expect(rx.byEvent(e).map((r) => r.path)).to.deep.equal(['/replay', '/replay']);
    expect(rx.byEvent(missed)).to.have.length(1);
    expect(rx.byEvent(delivered)).to.have.length(1);
    expect(rx.byEvent(ignoredType)).to.have.length(0);
    // Everything is delivered now: a second replay has nothing to do.
    const again = await h.call('POST', `${API}/${id}/replay`, { merchantId, body: { since } });
    expect(again.body.data.queued).to.equal(0);
    // A subset of the subscriptions only.
    const subset = await h.call('POST', `${API}/${id}/replay`, {
      merchantId,
      body: { since, events: ['payment.failed'] },
    });
    expect(subset.body.data.queued).to.equal(0);

    const bad = async (body: unknown) => {
      const r = await h.call('POST', `${API}/${id}/replay`, { merchantId, body });
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.details[0].path).to.equal('since');
    };
    await bad({});
    await bad({ since: 'yesterday' });
    await bad({ since: new Date(Date.now() - 31 * 86_400_000).toISOString() });
    await bad({ since: new Date(Date.now() + 60_000).toISOString() });
  });
});
