import { API_KEY_SCOPES, routes } from '@stablepay/contracts';
import { expect } from 'chai';
import {
  PDF_BYTES,
  bearer,
  call,
  closedPortUrl,
  createKey,
  routingCatalogue,
  signUp,
  startEchoUpstream,
  startReplica,
  startTestGateway,
  type Account,
  type EchoUpstream,
  type Replica,
  type TestGateway,
} from './harness.js';

const SAMPLE_ID = '0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f';
// Checkout sessions are named `cs_live_<uuid>`; every other id is a UUID.
const concrete = (path: string): string =>
  path.replace(/:[A-Za-z]+/g, /^\/checkout[/-]sessions/.test(path) ? `cs_live_${SAMPLE_ID}` : SAMPLE_ID);

describe('gateway: route table and forwarding', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let degraded: Replica;
  let account: Account;
  let key: { id: string; key: string };

  before(async () => {
    upstream = await startEchoUpstream();
    const options = { catalogue: routingCatalogue };
    gw = await startTestGateway(upstream.url, {}, options);
    // Payments refuses connections; refunds answers, but slower than the gateway waits.
    degraded = await startReplica(
      gw,
      upstream.url,
      { PAYMENTS_URL: await closedPortUrl(), UPSTREAM_TIMEOUT_MS: '300' },
      options,
    );
    account = await signUp(gw.url);
    // Every scope: this is about routing each credential, scopes are tested on their own.
    key = await createKey(gw.url, account, 'server', [...API_KEY_SCOPES]);
  });
  after(async () => {
    await degraded?.stop();
    await gw?.close();
    await upstream?.close();
  });

  // With every route served (none planned) and any query accepted: see routingCatalogue.
  describe('every route of the contracts table is served with its auth', () => {
    for (const route of routes) {
      const method = route.method.toUpperCase();
      const path = concrete(route.path);
      const title = `${method} ${route.path} (${route.auth}, ${route.service})`;
      const send = (headers: Record<string, string> = {}) =>
        call(gw.url, method, route.service === 'gateway' ? path : `${path}?probe=1&q=a%20b`, {
          headers,
          ...(method === 'POST' || method === 'PUT' ? { body: {} } : {}),
        });

      it(title, async () => {
        if (route.auth !== 'public') {
          const anonymous = await send();
          expect(anonymous.status, 'without credentials').to.equal(401);
          expect(anonymous.body.success).to.equal(false);
        }
        const credentials =
          route.auth === 'key'
            ? { 'x-api-key': key.key }
            : route.auth === 'public'
              ? {}
              : bearer(account.accessToken);
        const res = await send(credentials);
        if (route.service === 'gateway') {
          expect(res.status, res.text).to.not.be.oneOf([401, 403, 503]);
          expect(String(res.body?.error ?? '')).not.to.match(/^No route/);
          return;
        }
        expect(res.status, res.text).to.equal(method === 'POST' ? 201 : 200);
        const seen = res.body.data;
        expect(seen.method).to.equal(method);
        expect(seen.url).to.equal(`${path}?probe=1&q=a%20b`);
        expect(seen.tokenError).to.equal(undefined);
        const callers: Record<string, string> = {
          public: 'public',
          key: 'api_key',
          jwt: 'user',
          jwt_or_key: 'user',
        };
        const expectedCaller = callers[route.auth];
        expect(seen.claims.caller).to.equal(expectedCaller);
        if (route.auth !== 'public') expect(seen.claims.merchantPublicId).to.equal(account.merchantPublicId);
      });
    }
  });

  it('replaces client credentials with the internal token and passes request ids', async () => {
    const res = await call(gw.url, 'GET', '/refunds/api/list?status=pending', {
      headers: {
        'x-api-key': key.key,
        authorization: 'Bearer something',
        cookie: 'session=abc',
        'x-internal-token': 'forged',
        'x-request-id': 'req-12345',
        'x-correlation-id': 'corr-777',
        'x-custom': 'kept',
      },
    });
    expect(res.status).to.equal(200);
    const seen = res.body.data;
    for (const header of ['x-api-key', 'authorization', 'cookie'])
      expect(seen.seenHeaders).not.to.have.property(header);
    expect(seen.seenHeaders['x-internal-token']).not.to.equal('forged');
    expect(seen.claims).to.deep.include({
      caller: 'api_key',
      apiKeyId: key.id,
      merchantPublicId: account.merchantPublicId,
    });
    expect(seen.claims.merchantId).to.equal(account.merchantPublicId.replace(/^sp_live_/, ''));
    expect(seen.seenHeaders['x-request-id']).to.equal('req-12345');
    expect(seen.seenHeaders['x-correlation-id']).to.equal('corr-777');
    expect(seen.seenHeaders['x-custom']).to.equal('kept');
    expect(res.headers.get('x-request-id')).to.equal('req-12345');
    // CORS is the gateway's decision, not the service's.
    expect(res.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('names the dashboard user in the internal token of jwt routes', async () => {
    const res = await call(gw.url, 'GET', '/payments', { headers: bearer(account.accessToken) });
    expect(res.body.data.claims).to.deep.include({ caller: 'user', userId: account.userId });
  });

  it('streams binary answers through untouched (invoice PDF)', async () => {
    const res = await fetch(`${gw.url}/invoices/api/${SAMPLE_ID}/pdf?mode=download`, {
      headers: { 'x-api-key': key.key },
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/pdf');
    expect(res.headers.get('content-disposition')).to.equal('inline; filename="invoice.pdf"');
    expect(Buffer.from(await res.arrayBuffer()).equals(PDF_BYTES)).to.equal(true);
  });

  it('forwards a body up to 1 MB and answers 413 above it, declared or streamed', async () => {
    const near = JSON.stringify({ blob: 'x'.repeat(1000 * 1000) });
    const ok = await call(gw.url, 'POST', '/payments/create-public', {
      raw: near,
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).to.equal(201);
    expect(ok.body.data.body.length).to.equal(near.length);

    const big = JSON.stringify({ blob: 'x'.repeat(1100 * 1024) });
    const declared = await call(gw.url, 'POST', '/payments/create-public', {
      raw: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(declared.status).to.equal(413);
    expect(declared.body).to.deep.equal({ success: false, error: 'Request body too large', details: [] });

    const before = upstream.seen.length;
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const streamed = await fetch(`${gw.url}/payments/create-public`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).to.equal(413);
    expect(await streamed.json()).to.deep.equal({
      success: false,
      error: 'Request body too large',
      details: [],
    });
    expect(upstream.seen.length).to.equal(before);
  });

  it('adds its own stages to the Server-Timing of what it forwarded, with a body or without', async () => {
    const gatewayStages = (header: string | null) =>
      (header ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e.includes('desc="gateway"'))
        .map((e) => e.split(';')[0]);
    // A public POST: its body is read before it is forwarded, and the read resumes outside the
    // request's own context; the upstream call must still count as the request's.
    const posted = await call(gw.url, 'POST', '/payments/create-public', {
      body: { merchantId: 'm' },
    });
    expect(posted.status).to.equal(201);
    expect(gatewayStages(posted.headers.get('server-timing'))).to.include.members([
      'upstream',
      'before_upstream',
      'app',
    ]);
    const listed = await call(gw.url, 'GET', '/payments/api/list', { headers: { 'X-API-Key': key.key } });
    expect(gatewayStages(listed.headers.get('server-timing'))).to.include.members(['upstream', 'app']);
  });

  it('answers 503 with Retry-After when the service refuses or does not answer in time', async () => {
    const refused = await call(
      degraded.url,
      'GET',
      '/payments/cctp-fee?destinationChain=ETH&productPrice=10',
    );
    expect(refused.status).to.equal(503);
    expect(refused.body).to.deep.equal({ success: false, error: 'Service unavailable', details: [] });
    expect(refused.headers.get('retry-after')).to.equal('5');

    const slow = await call(degraded.url, 'GET', '/refunds/api/list', {
      headers: { 'x-api-key': key.key, 'x-test-delay': '2000' },
    });
    expect(slow.status).to.equal(503);
    expect(slow.body.error).to.equal('Service unavailable');
    expect(slow.headers.get('retry-after')).to.equal('5');
  });

  it('answers unknown paths and methods with the 404 envelope', async () => {
    const unknown = await call(gw.url, 'GET', '/nope');
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ success: false, error: 'No route for GET /nope', details: [] });
    const wrongMethod = await call(gw.url, 'PATCH', '/payments/api/list', {
      headers: { 'x-api-key': key.key },
    });
    expect(wrongMethod.status).to.equal(404);
    expect(wrongMethod.body.success).to.equal(false);
  });
});
