import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { SmtpSink } from '../support/smtp.js';

const API = '/merchant-webhooks/api';

describe('consecutive failures disable an endpoint (spec: 10)', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;
  let smtp: SmtpSink;

  before(async () => {
    rx = await Receiver.start();
    smtp = await SmtpSink.start();
    // A retry a minute after the first attempt: it is still waiting when the endpoint is disabled.
    h = await startHarness({ env: { SMTP_URL: smtp.url, WEBHOOK_RETRY_SCHEDULE: '0,60s' } });
  });
  after(async () => {
    await h?.close();
    await rx?.close();
    await smtp?.close();
  });

  const endpointOf = async (merchantId: string, id: string) =>
    (await h.call('GET', `${API}/${id}`, { merchantId })).body.data;
  const failedFirstAttempts = async (id: string) =>
    (await h.db('webhook_attempts').where({ endpoint_id: id, attempt: 1, status: 'failed' })).length;

  it('stays active after 9, is disabled at exactly 10, and the merchant is told once', async () => {
    const email = 'owner@dying.example.test';
    const merchantId = await h.merchant(email);
    rx.on('/dying', () => ({ status: 500, body: 'down' }));
    const { id } = await h.endpoint(merchantId, rx.url('/dying'), ['payment.completed']);
    const healthy = await h.endpoint(merchantId, rx.url('/healthy'), ['payment.completed']);

    for (let i = 0; i < 9; i++) await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await failedFirstAttempts(id)) === 9);
    expect(await endpointOf(merchantId, id)).to.include({ is_active: true, failure_count: 9 });

    const { id: tenth } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => !(await endpointOf(merchantId, id)).is_active);
    expect(await endpointOf(merchantId, id)).to.include({ is_active: false, failure_count: 10 });
    // The retries that were waiting (the tenth's included) fail at once with the reason.
    const attempts = await h.db('webhook_attempts').where({ endpoint_id: id });
    expect(attempts.filter((a) => a.status === 'pending')).to.have.length(0);
    const cancelled = attempts.filter((a) => a.error === 'endpoint disabled');
    expect(cancelled.map((a) => [a.attempt, a.response_status])).to.deep.equal(Array(10).fill([2, null]));
    expect(await h.deliveryStatus(tenth, id)).to.equal('failed');
    // The other endpoint of the merchant is unaffected.
    expect(await endpointOf(merchantId, healthy.id)).to.include({ is_active: true, failure_count: 0 });

    // A disabled endpoint gets no new deliveries, and its failures no longer count.
    const { id: eleventh } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(() => rx.byEvent(eleventh, '/healthy').length === 1);
    expect(rx.at('/dying')).to.have.length(10);
    expect(await endpointOf(merchantId, id)).to.include({ failure_count: 10 });

    const disabledNotices = () =>
      smtp.to(email).filter((m) => m.subject?.startsWith('Webhook endpoint disabled'));
    const [notice] = await waitFor(() => disabledNotices().length > 0 && disabledNotices());
    expect(notice!.subject).to.equal('Webhook endpoint disabled after 10 consecutive failures');
    expect(notice!.text).to.include(rx.url('/dying')).and.include('HTTP 500');
    expect(notice!.html).to.include(id);
    expect(notice!.messageId).to.match(/^<[0-9a-f]{40}@pay\.example\.test>$/);
    await waitFor(async () => (await h.db('emails').where({ status: 'pending' })).length === 0);
    expect(smtp.to(email).filter((m) => m.subject?.startsWith('Webhook endpoint disabled'))).to.have.length(
      1,
    );

    // Re-enabled by the merchant: active again, count reset, deliveries resume.
    rx.on('/dying', () => ({ status: 200 }));
    const back = await h.call('PUT', `${API}/${id}`, { merchantId, body: { is_active: true } });
    expect(back.body.data).to.include({ is_active: true, failure_count: 0 });
    const { id: after } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(after, id)) === 'succeeded');
  });

  it('counts consecutive failures only: a success resets the count', async () => {
    const merchantId = await h.merchant();
    let failing = true;
    rx.on('/wobbly', () => (failing ? { status: 502 } : { status: 200 }));
    const { id } = await h.endpoint(merchantId, rx.url('/wobbly'), ['payment.completed']);
    for (let i = 0; i < 8; i++) await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await failedFirstAttempts(id)) === 8);
    expect((await endpointOf(merchantId, id)).failure_count).to.equal(8);
    failing = false;
    const { id: ok } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(ok, id)) === 'succeeded');
    expect((await endpointOf(merchantId, id)).failure_count).to.equal(0);
    failing = true;
    for (let i = 0; i < 9; i++) await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await failedFirstAttempts(id)) === 17);
    expect(await endpointOf(merchantId, id)).to.include({ is_active: true, failure_count: 9 });
  });
});
