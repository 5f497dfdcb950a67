import { expect } from 'chai';
import { WebhookDeliveryLog, type EventDataInput, type WebhookEventName } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { failedPaymentData, paymentData, refundData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver, signatureMatches } from '../support/receiver.js';

describe('webhook delivery (PostgreSQL + RabbitMQ + HTTPS receivers)', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  it('sends every payment and refund event, signed exactly as the spec says', async () => {
    const merchantId = await h.merchant();
    const path = '/all-events';
    const { id: endpointId, secret } = await h.endpoint(merchantId, rx.url(path));
    const pay = paymentData(merchantId);
    const events: Array<[WebhookEventName, Record<string, unknown>]> = [
      ['payment.completed', pay],
      ['payment.failed', failedPaymentData(merchantId, 'expired')],
      ['refund.created', refundData(merchantId, pay.payment_id, { status: 'pending', tx_hash: null })],
      ['refund.completed', refundData(merchantId, pay.payment_id)],
      [
        'refund.failed',
        refundData(merchantId, pay.payment_id, { status: 'failed', failure_reason: 'reverted' }),
      ],
    ];
    const ids: string[] = [];
    for (const [type, data] of events)
      ids.push((await h.publish(type, data as EventDataInput<typeof type>)).id);
    const got = await rx.waitForRequests(path, 5);

    for (const [i, [type, data]] of events.entries()) {
      const req = got.find((r) => r.eventId === ids[i])!;
      expect(req, type).to.exist;
      expect(req.headers['content-type']).to.equal('application/json');
      expect(req.headers['x-service-event']).to.equal(type);
      expect(req.headers['x-service-test']).to.equal('false');
      expect(req.headers['user-agent']).to.match(/^StablePay-Webhooks\//);
      const ts = Number(req.headers['x-service-timestamp']);
      expect(Math.abs(ts - Date.now() / 1000)).to.be.below(30);
      expect(signatureMatches(secret, req), `${type} signature`).to.equal(true);
      expect(req.headers['x-service-signature']).to.match(/^sha256=[0-9a-f]{64}$/);
      expect(Object.keys(req.body)).to.deep.equal(['event', 'timestamp', 'data']);
      expect(req.body.event).to.equal(type);
      expect(req.body.data).to.not.have.property('merchant_id');
      if (type.startsWith('payment.')) {
        expect(req.body.data.payment_id).to.equal(data.payment_id);
        expect(req.body.data).to.include({ amount: '25.500000', currency: 'USDC', is_cross_chain: false });
        expect(req.body.data).to.not.have.any.keys(
          'failure_reason',
          'completed_at',
          'merchant_transfer_tx_hash',
        );
      } else {
        expect(req.body.data.refund_id).to.equal(data.refund_id);
        if (type === 'refund.failed') expect(req.body.data.failure_reason).to.equal('reverted');
        else expect(req.body.data).to.not.have.property('failure_reason');
      }
    }
    await waitFor(async () => (await h.deliveryStatus(ids[4]!, endpointId)) === 'succeeded');
  });

  it('delivers to each subscribed endpoint once, even when the broker delivers the event twice', async () => {
    const merchantId = await h.merchant();
    const a = await h.endpoint(merchantId, rx.url('/twice-a'), ['payment.completed']);
    const b = await h.endpoint(merchantId, rx.url('/twice-b'), ['payment.completed', 'refund.created']);
    const refundsOnly = await h.endpoint(merchantId, rx.url('/twice-c'), ['refund.completed']);
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId), { times: 3 });
    await waitFor(async () => (await h.deliveryStatus(eventId, a.id)) === 'succeeded');
    await waitFor(async () => (await h.deliveryStatus(eventId, b.id)) === 'succeeded');
    // Another merchant's event behind it: when it has arrived, the copies have long been handled.
    const other = await h.merchant();
    await h.endpoint(other, rx.url('/twice-other'), ['payment.completed']);
    const { id: marker } = await h.publish('payment.completed', paymentData(other));
    await waitFor(() => rx.byEvent(marker).length === 1);
    expect(rx.byEvent(eventId, '/twice-a')).to.have.length(1);
    expect(rx.byEvent(eventId, '/twice-b')).to.have.length(1);
    expect(rx.at('/twice-c')).to.have.length(0);
    const rows = await h.db('webhook_deliveries').where({ event_id: eventId });
    expect(rows.map((r) => r.endpoint_id).sort()).to.deep.equal([a.id, b.id].sort());
    expect(await h.db('webhook_deliveries').where({ endpoint_id: refundsOnly.id })).to.have.length(0);
  });

  it('retries failures on the schedule with a stable event id and a fresh signature each time', async () => {
    const merchantId = await h.merchant();
    const path = '/flaky';
    rx.on(path, (_req, n) => (n < 3 ? { status: 500, body: 'boom' } : { status: 204 }));
    const { id, secret } = await h.endpoint(merchantId, rx.url(path), ['payment.completed']);
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(eventId, id)) === 'succeeded');
    const got = rx.at(path);
    expect(got).to.have.length(3);
    expect(new Set(got.map((r) => r.eventId))).to.deep.equal(new Set([eventId]));
    expect(new Set(got.map((r) => r.raw)).size).to.equal(1); // the same bytes every time
    for (const r of got) expect(signatureMatches(secret, r)).to.equal(true);
    // schedule 0, 50 ms, 100 ms (±20 %)
    expect(got[1]!.at - got[0]!.at).to.be.at.least(35);
    expect(got[2]!.at - got[1]!.at).to.be.at.least(75);

    const logs = (await h.call('GET', `/merchant-webhooks/api/${id}/logs`, { merchantId })).body.data.logs;
    expect(logs).to.have.length(3);
    for (const log of logs) WebhookDeliveryLog.parse(log);
    expect(logs.map((l: any) => [l.attempt, l.status, l.response_status])).to.deep.equal([
      [3, 'succeeded', 204],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(logs[1]).to.include({
      error: 'HTTP 500',
      response_body_excerpt: 'boom',
      trigger: 'event',
      is_test: false,
    });
    expect(logs[0].payload).to.deep.equal(JSON.parse(got[0]!.raw));
    const endpoint = (await h.call('GET', `/merchant-webhooks/api/${id}`, { merchantId })).body.data;
    expect(endpoint.failure_count).to.equal(0); // the success reset it
  });

  it('waits at least as long as Retry-After says on 429 and 503', async () => {
    const merchantId = await h.merchant();
    const path = '/throttled';
    rx.on(path, (_req, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '2' } }
        : n === 2
          ? { status: 503, headers: { 'retry-after': '1' } }
          : { status: 200 },
    );
    const { id } = await h.endpoint(merchantId, rx.url(path), ['payment.completed']);
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(eventId, id)) === 'succeeded', 15_000);
    const [first, second, third] = rx.at(path);
    expect(second!.at - first!.at).to.be.at.least(2_000);
    expect(third!.at - second!.at).to.be.at.least(1_000);
    const pending = await h.db('webhook_attempts').where({ endpoint_id: id }).orderBy('attempt');
    expect(pending.map((a) => a.status)).to.deep.equal(['failed', 'failed', 'succeeded']);
  });

  it('fails an attempt the receiver does not answer within the timeout, and goes on', async () => {
    const merchantId = await h.merchant();
    const path = '/hangs-once';
    rx.on(path, (_req, n) => (n === 1 ? 'hang' : { status: 200 }));
    const { id } = await h.endpoint(merchantId, rx.url(path), ['payment.completed']);
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(eventId, id)) === 'succeeded', 10_000);
    const [timedOut] = await h.db('webhook_attempts').where({ endpoint_id: id, attempt: 1 });
    expect(timedOut.status).to.equal('failed');
    expect(timedOut.response_status).to.equal(null);
    expect(timedOut.error).to.equal(`timeout after ${h.config.WEBHOOK_TIMEOUT_MS} ms`);
    expect(timedOut.response_time_ms).to.be.within(
      h.config.WEBHOOK_TIMEOUT_MS - 50,
      h.config.WEBHOOK_TIMEOUT_MS + 1_000,
    );
    rx.release();
  });

  it('never follows a redirect: a 302 is a failure and its Location is not called', async () => {
    const merchantId = await h.merchant();
    rx.on('/redirects', () => ({ status: 302, headers: { location: rx.url('/internal-admin') } }));
    const { id } = await h.endpoint(merchantId, rx.url('/redirects'), ['payment.completed']);
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(eventId, id)) === 'failed', 10_000);
    expect(rx.at('/redirects')).to.have.length(h.config.WEBHOOK_RETRY_SCHEDULE.length);
    expect(rx.at('/internal-admin')).to.have.length(0);
    const [log] = (await h.call('GET', `/merchant-webhooks/api/${id}/logs?limit=1`, { merchantId })).body.data
      .logs;
    expect(log.response_status).to.equal(302);
    expect(log.error).to.match(
      /^redirect not followed \(HTTP 302 to https:\/\/127\.0\.0\.1:\d+\/internal-admin\)$/,
    );
  });

  it('reads at most 2 KB of an answer and keeps 1024 characters of it', async () => {
    const merchantId = await h.merchant();
    rx.on('/chatty', () => ({ status: 200, body: 'x'.repeat(5_000_000) }));
    const { id } = await h.endpoint(merchantId, rx.url('/chatty'), ['payment.completed']);
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(eventId, id)) === 'succeeded');
    const [attempt] = await h.db('webhook_attempts').where({ endpoint_id: id });
    expect(attempt.response_body_excerpt).to.equal('x'.repeat(1024));
  });
});
