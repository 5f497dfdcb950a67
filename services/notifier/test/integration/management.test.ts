import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  CreateWebhookResponse,
  DeleteWebhookResponse,
  RegenerateWebhookSecretResponse,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WebhookEventsResponse,
  WebhookListResponse,
  WebhookLogsResponse,
  WebhookResponse,
  WebhookTestResponse,
} from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver, signatureMatches } from '../support/receiver.js';

const API = '/merchant-webhooks/api';

describe('webhook management API', function () {
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

  const expectValidation = (res: { status: number; body: any }, path: string) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.success).to.equal(false);
    expect(res.body.error).to.be.a('string');
    expect(res.body.details.map((d: any) => d.path)).to.include(path);
  };

  it('creates, lists, reads, updates and deletes endpoints in the spec’s shapes', async () => {
    const merchantId = randomUUID();
    const created = await h.call('POST', `${API}/create`, {
      merchantId,
      body: { url: rx.url('/crud'), events: ['payment.completed', 'refund.failed'], description: 'orders' },
    });
    expect(created.status).to.equal(201);
    const endpoint = CreateWebhookResponse.parse(created.body).data;
    expect(endpoint).to.include({
      url: rx.url('/crud'),
      description: 'orders',
      is_active: true,
      failure_count: 0,
    });
    expect(endpoint.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Object.keys(created.body.data).sort()).to.deep.equal(
      ['id', 'url', 'events', 'description', 'is_active', 'failure_count', 'created_at', 'secret'].sort(),
    );

    const list = await h.call('GET', `${API}/list`, { merchantId });
    expect(WebhookListResponse.parse(list.body).data.map((e) => e.id)).to.deep.equal([endpoint.id]);
    const one = await h.call('GET', `${API}/${endpoint.id}`, { merchantId });
    expect(WebhookResponse.parse(one.body).data).to.deep.equal(list.body.data[0]);
    // The secret is shown on create and regenerate only.
    expect(list.body.data[0]).to.not.have.property('secret');
    expect(one.body.data).to.not.have.property('secret');
    expect(JSON.stringify(list.body) + JSON.stringify(one.body)).to.not.include(endpoint.secret);

    const updated = await h.call('PUT', `${API}/${endpoint.id}`, {
      merchantId,
      body: { events: ['refund.created'], description: null, url: rx.url('/crud2') },
    });
    expect(updated.status).to.equal(200);
    expect(WebhookResponse.parse(updated.body).data).to.include({ description: null, url: rx.url('/crud2') });
    expect(updated.body.data.events).to.deep.equal(['refund.created']);
    const untouched = await h.call('PUT', `${API}/${endpoint.id}`, { merchantId, body: {} });
    expect(untouched.body.data).to.deep.equal(updated.body.data);

    const deleted = await h.call('DELETE', `${API}/${endpoint.id}`, { merchantId });
    expect(deleted.status).to.equal(200);
    expect(DeleteWebhookResponse.parse(deleted.body).message).to.be.a('string');
    expect((await h.call('GET', `${API}/${endpoint.id}`, { merchantId })).status).to.equal(404);
    expect((await h.call('DELETE', `${API}/${endpoint.id}`, { merchantId })).status).to.equal(404);
    expect((await h.call('GET', `${API}/list`, { merchantId })).body.data).to.deep.equal([]);
  });

  it('validates bodies and answers in the error envelope', async () => {
    const merchantId = randomUUID();
    const post = (body: unknown) => h.call('POST', `${API}/create`, { merchantId, body });
    expectValidation(await post({ events: ['payment.completed'] }), 'url');
    expectValidation(await post({ url: 'not a url', events: ['payment.completed'] }), 'url');
    expectValidation(await post({ url: rx.url(), events: [] }), 'events');
    expectValidation(await post({ url: rx.url(), events: ['payment.created'] }), 'events.0');
    expectValidation(await post({ url: rx.url(), events: ['refund.failed', 'refund.failed'] }), 'events');
    expectValidation(
      await post({ url: rx.url(), events: ['refund.failed'], description: 'd'.repeat(201) }),
      'description',
    );
    expect(
      (await post({ url: rx.url(), events: ['refund.failed'], description: 'd'.repeat(200) })).status,
    ).to.equal(201);
    expectValidation(await post({ url: 'https://user:pw@localhost/x', events: ['refund.failed'] }), 'url');
    const unresolvable = await post({ url: 'https://no-such-host.invalid/x', events: ['refund.failed'] });
    expectValidation(unresolvable, 'url');
    expect(unresolvable.body.details[0].code).to.equal('unresolvable_host');
    expectValidation(await h.call('GET', `${API}/not-a-uuid`, { merchantId }), 'id');
    const malformed = await fetch(`${h.url}${API}/create`, { method: 'POST' });
    expect(malformed.status).to.equal(401); // no internal token: nothing is reachable
  });

  it('refuses NUL characters and lone surrogates in a description or URL, and stores nothing', async () => {
    const merchantId = randomUUID();
    const unsafe: Array<Record<string, string>> = [
      { description: 'orders\u0000' },
      { description: 'orders \uD800' },
      { description: '\uDC00 orders' },
      { url: rx.url('/te\u0000xt') },
      { url: rx.url('/te\uD83Dxt') },
    ];
    const expectRefused = (res: { status: number; body: any }, body: Record<string, string>) => {
      const field = Object.keys(body)[0]!;
      expectValidation(res, field);
      expect(res.body.details.find((d: any) => d.path === field).code).to.equal('invalid_text');
    };

    for (const body of unsafe) {
      const res = await h.call('POST', `${API}/create`, {
        merchantId,
        body: { url: rx.url('/text'), events: ['payment.completed'], ...body },
      });
      expectRefused(res, body);
    }
    expect(await h.db('webhook_endpoints').where({ merchant_id: merchantId })).to.deep.equal([]);

    const { id } = await h.endpoint(merchantId, rx.url('/text'), ['payment.completed']);
    const stored = await h.db('webhook_endpoints').where({ id }).first();
    for (const body of unsafe) expectRefused(await h.call('PUT', `${API}/${id}`, { merchantId, body }), body);
    expect(await h.db('webhook_endpoints').where({ id }).first()).to.deep.equal(stored);
  });

  it('answers 404 for another merchant’s endpoint on every route', async () => {
    const owner = randomUUID();
    const stranger = randomUUID();
    const { id } = await h.endpoint(owner, rx.url('/mine'), ['payment.completed']);
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `${API}/${id}`],
      ['PUT', `${API}/${id}`, { is_active: false }],
      ['DELETE', `${API}/${id}`],
      ['POST', `${API}/${id}/regenerate-secret`],
      ['POST', `${API}/${id}/test`],
      ['GET', `${API}/${id}/logs`],
      ['POST', `${API}/${id}/deliveries/${randomUUID()}/redeliver`],
      ['POST', `${API}/${id}/replay`, { since: new Date(Date.now() - 60_000).toISOString() }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await h.call(method, path, { merchantId: stranger, body });
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body).to.deep.include({ success: false, details: [] });
    }
    expect((await h.call('GET', `${API}/list`, { merchantId: stranger })).body.data).to.deep.equal([]);
    expect((await h.call('GET', `${API}/${id}`, { merchantId: owner })).body.data.is_active).to.equal(true);
    expect(rx.at('/mine')).to.have.length(0);
  });

  it('takes only API-key callers', async () => {
    const merchantId = randomUUID();
    expect((await h.call('GET', `${API}/list`, { merchantId, caller: 'user' })).status).to.equal(403);
    expect((await h.call('GET', `${API}/list`, { caller: 'public' })).status).to.equal(401);
  });

  it('lists the five events and the five extensions with their descriptions', async () => {
    const res = await h.call('GET', `${API}/events`, { merchantId: randomUUID() });
    const events = WebhookEventsResponse.parse(res.body).data;
    expect(events).to.deep.equal(
      Object.entries(WEBHOOK_EVENT_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
    );
    expect(events).to.have.length(10);
  });

  it('sends a signed payment.completed test with X-Service-Test: true and logs it', async () => {
    const merchantId = randomUUID();
    const { id, secret } = await h.endpoint(merchantId, rx.url('/test-op'), ['refund.failed']);
    const res = await h.call('POST', `${API}/${id}/test`, { merchantId });
    expect(res.status).to.equal(200);
    const result = WebhookTestResponse.parse(res.body).data;
    expect(result).to.include({ success: true, status_code: 200, error: null });
    const [req] = rx.at('/test-op');
    expect(req!.headers['x-service-test']).to.equal('true');
    expect(req!.headers['x-service-event']).to.equal('payment.completed');
    expect(req!.body.event).to.equal('payment.completed');
    expect(req!.body.data).to.include({ status: 'completed', currency: 'USDC' });
    expect(signatureMatches(secret, req!)).to.equal(true);
    const logs = WebhookLogsResponse.parse((await h.call('GET', `${API}/${id}/logs`, { merchantId })).body)
      .data.logs;
    expect(logs).to.have.length(1);
    expect(logs[0]).to.include({
      id: result.delivery_id,
      is_test: true,
      status: 'succeeded',
      response_status: 200,
    });
    expect(logs[0]!.event_id).to.equal(req!.eventId);

    rx.on('/test-down', () => ({ status: 503, body: 'maintenance' }));
    const down = await h.endpoint(merchantId, rx.url('/test-down'), ['refund.failed']);
    const failed = (await h.call('POST', `${API}/${down.id}/test`, { merchantId })).body.data;
    expect(failed).to.include({ success: false, status_code: 503, error: 'HTTP 503' });
    // A test never counts against the endpoint.
    expect((await h.call('GET', `${API}/${down.id}`, { merchantId })).body.data.failure_count).to.equal(0);
  });

  it('regenerates the secret: shown once, and the old one no longer verifies', async () => {
    const merchantId = randomUUID();
    const { id, secret: old } = await h.endpoint(merchantId, rx.url('/rotate'), ['payment.completed']);
    const res = await h.call('POST', `${API}/${id}/regenerate-secret`, { merchantId });
    expect(res.status).to.equal(200);
    const { secret } = RegenerateWebhookSecretResponse.parse(res.body).data;
    expect(res.body.data.id).to.equal(id);
    expect(secret)
      .to.match(/^whsec_/)
      .and.not.equal(old);
    await h.publish('payment.completed', paymentData(merchantId));
    const [req] = await rx.waitForRequests('/rotate', 1);
    expect(signatureMatches(secret, req!)).to.equal(true);
    expect(signatureMatches(old, req!)).to.equal(false);
    await h.call('POST', `${API}/${id}/test`, { merchantId });
    const test = rx.at('/rotate')[1]!;
    expect(signatureMatches(secret, test)).to.equal(true);
    expect(signatureMatches(old, test)).to.equal(false);
  });

  it('takes an endpoint id in any case as the same endpoint, and seals its secret under the canonical id', async () => {
    const merchantId = randomUUID();
    const { id } = await h.endpoint(merchantId, rx.url('/upper'), ['payment.completed']);
    const upper = id.toUpperCase();
    const res = await h.call('POST', `${API}/${upper}/regenerate-secret`, { merchantId });
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(id);
    const { secret } = RegenerateWebhookSecretResponse.parse(res.body).data;
    // The secret still opens: tests and deliveries sign with it.
    const test = await h.call('POST', `${API}/${upper}/test`, { merchantId });
    expect(test.status, JSON.stringify(test.body)).to.equal(200);
    expect(test.body.data.success).to.equal(true);
    expect(signatureMatches(secret, rx.at('/upper')[0]!)).to.equal(true);
    expect((await h.call('GET', `${API}/${upper}`, { merchantId })).body.data.id).to.equal(id);
    await h.publish('payment.completed', paymentData(merchantId));
    const [, delivered] = await rx.waitForRequests('/upper', 2);
    expect(signatureMatches(secret, delivered!)).to.equal(true);
  });

  it('bounds the log page: default 20, at most 100, newest first', async () => {
    const merchantId = await h.merchant();
    const { id } = await h.endpoint(merchantId, rx.url('/many'), ['payment.completed']);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await h.publish('payment.completed', paymentData(merchantId))).id);
    await waitFor(
      async () =>
        (await h.db('webhook_attempts').where({ endpoint_id: id, status: 'succeeded' })).length === 25,
    );
    const logs = async (q: string) => h.call('GET', `${API}/${id}/logs${q}`, { merchantId });
    expect((await logs('')).body.data.logs).to.have.length(20);
    expect((await logs('?limit=100')).body.data.logs).to.have.length(25);
    expect((await logs('?limit=1')).body.data.logs).to.have.length(1);
    expectValidation(await logs('?limit=101'), 'limit');
    expectValidation(await logs('?limit=0'), 'limit');
    expectValidation(await logs('?limit=abc'), 'limit');
    const all = (await logs('?limit=100')).body.data.logs;
    const times = all.map((l: any) => Date.parse(l.created_at));
    expect([...times].sort((a, b) => b - a)).to.deep.equal(times);
  });

  it('re-enables a disabled endpoint and resets its count with PUT is_active: true', async () => {
    const merchantId = randomUUID();
    const { id } = await h.endpoint(merchantId, rx.url('/toggle'), ['payment.completed']);
    await h.db('webhook_endpoints').where({ id }).update({ failure_count: 7 });
    const off = await h.call('PUT', `${API}/${id}`, { merchantId, body: { is_active: false } });
    expect(off.body.data).to.include({ is_active: false, failure_count: 7 });
    const on = await h.call('PUT', `${API}/${id}`, { merchantId, body: { is_active: true } });
    expect(on.body.data).to.include({ is_active: true, failure_count: 0 });
  });
});
