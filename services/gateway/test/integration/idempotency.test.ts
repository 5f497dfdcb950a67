import { expect } from 'chai';
import {
  bearer,
  call,
  createKey,
  signUp,
  startEchoUpstream,
  startTestGateway,
  type Account,
  type EchoUpstream,
  type TestGateway,
} from './harness.js';

const session = { return_url: 'https://shop.example/done', amount: '12.50' };

describe('gateway: Idempotency-Key', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let account: Account;
  let apiKey: string;

  const hits = (path: string) => upstream.seen.filter((s) => s.url === path).length;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url);
    account = await signUp(gw.url);
    apiKey = (await createKey(gw.url, account)).key;
  });
  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  it('replays the first answer and reaches the service once, even for 10 concurrent requests', async () => {
    const headers = { 'x-api-key': apiKey, 'idempotency-key': 'order-1001', 'x-test-delay': '150' };
    const first = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(gw.url, 'POST', '/checkout/sessions', { body: session, headers }),
      ),
    );
    const statuses = first.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).to.have.length.greaterThan(0);
    expect(statuses.every((s) => s === 201 || s === 409)).to.equal(true, String(statuses));
    for (const r of first.filter((x) => x.status === 409)) {
      expect(r.body).to.deep.equal({
        success: false,
        error: 'Request with this Idempotency-Key is in progress',
        details: [],
      });
    }
    expect(hits('/checkout/sessions')).to.equal(1);

    const original = first.find((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null)!;
    const replay = await call(gw.url, 'POST', '/checkout/sessions', { body: session, headers });
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.headers.get('content-type')).to.match(/^application\/json/);
    expect(replay.text).to.equal(original.text);
    expect(hits('/checkout/sessions')).to.equal(1);
  });

  it('refuses the same key with a different body (422)', async () => {
    const headers = { 'x-api-key': apiKey, 'idempotency-key': 'order-2002' };
    expect((await call(gw.url, 'POST', '/checkout/sessions', { body: session, headers })).status).to.equal(
      201,
    );
    const other = await call(gw.url, 'POST', '/checkout/sessions', {
      body: { ...session, amount: '99' },
      headers,
    });
    expect(other.status).to.equal(422);
    expect(other.body).to.deep.equal({
      success: false,
      error: 'Idempotency-Key was already used with a different request body',
      details: [],
    });
  });

  it('scopes keys by caller: another merchant with the same key gets its own answer', async () => {
    const other = await signUp(gw.url, 'Other');
    const otherKey = (await createKey(gw.url, other)).key;
    const before = upstream.seen.length;
    const a = await call(gw.url, 'POST', '/refunds/api/create', {
      body: { x: 1 },
      headers: { 'x-api-key': apiKey, 'idempotency-key': 'shared' },
    });
    const b = await call(gw.url, 'POST', '/refunds/api/create', {
      body: { x: 1 },
      headers: { 'x-api-key': otherKey, 'idempotency-key': 'shared' },
    });
    expect([a.status, b.status]).to.deep.equal([201, 201]);
    expect(b.headers.get('idempotent-replayed')).to.equal(null);
    expect(upstream.seen.length - before).to.equal(2);
  });

  it('does not keep 5xx answers, so the client may retry', async () => {
    const headers = { 'x-api-key': apiKey, 'idempotency-key': 'retry-me' };
    const failed = await call(gw.url, 'POST', '/refunds/api/create', {
      body: { y: 1 },
      headers: { ...headers, 'x-test-status': '500' },
    });
    expect(failed.status).to.equal(500);
    const retried = await call(gw.url, 'POST', '/refunds/api/create', { body: { y: 1 }, headers });
    expect(retried.status).to.equal(201);
    expect(retried.headers.get('idempotent-replayed')).to.equal(null);
    expect(
      upstream.seen.filter((s) => s.url === '/refunds/api/create' && s.body === '{"y":1}'),
    ).to.have.length(2);
  });

  it('applies to gateway-owned routes too, without storing the response in clear', async () => {
    const headers = { ...bearer(account.accessToken), 'idempotency-key': 'new-key-1' };
    const first = await call(gw.url, 'POST', '/api-keys', { body: { name: 'ci' }, headers });
    const second = await call(gw.url, 'POST', '/api-keys', { body: { name: 'ci' }, headers });
    expect(first.status).to.equal(201);
    expect(second.status).to.equal(201);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.body.data).to.deep.equal(first.body.data);
    const list = await call(gw.url, 'GET', '/api-keys', { headers: bearer(account.accessToken) });
    expect(list.body.data.filter((k: { name: string }) => k.name === 'ci')).to.have.length(1);
    const stored = await gw.db('idempotency_records').select('*');
    const dump = JSON.stringify(
      stored.map((r) => ({ ...r, response_body: r.response_body?.toString('latin1') })),
    );
    expect(dump).not.to.include(first.body.data.key);
    expect(dump).not.to.include('new-key-1');
  });

  it('rejects an Idempotency-Key longer than 255 characters', async () => {
    const res = await call(gw.url, 'POST', '/checkout/sessions', {
      body: session,
      headers: { 'x-api-key': apiKey, 'idempotency-key': 'k'.repeat(256) },
    });
    expect(res.status).to.equal(400);
    expect(res.body.details[0].path).to.equal('Idempotency-Key');
  });

  it('ignores the header on other methods', async () => {
    const headers = { 'x-api-key': apiKey, 'idempotency-key': 'get-1' };
    await call(gw.url, 'GET', '/payments/api/list', { headers });
    const again = await call(gw.url, 'GET', '/payments/api/list', { headers });
    expect(again.headers.get('idempotent-replayed')).to.equal(null);
  });
});
