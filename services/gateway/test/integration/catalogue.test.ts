import { allRoutes, routeById, routes, type RouteSpec } from '@stablepay/contracts';
import { expect } from 'chai';
import { API_KEY_REQUIRED, BEARER_REQUIRED } from '../../src/perimeter/authenticate.js';
import {
  bearer,
  call,
  closedPortUrl,
  createKey,
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
const concrete = (path: string): string => path.replace(/:[A-Za-z]+/g, SAMPLE_ID);

/** Resolves to the error a start failed with, or undefined when the gateway started. */
const startFailure = async (catalogue: readonly RouteSpec[]): Promise<Error | undefined> => {
  try {
    const gw = await startTestGateway(await closedPortUrl(), {}, { catalogue });
    await gw.close();
    return undefined;
  } catch (err) {
    return err as Error;
  }
};

describe('gateway: the route catalogue as the gateway serves it', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let down: Replica;
  let limited: Replica;
  let account: Account;
  let key: string;

  const credentialsFor = (spec: RouteSpec): Record<string, string> =>
    spec.auth === 'key' ? { 'x-api-key': key } : spec.auth === 'jwt' ? bearer(account.accessToken) : {};

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url);
    // Every service behind it refuses connections.
    down = await startReplica(gw, await closedPortUrl());
    limited = await startReplica(gw, upstream.url, { RATE_LIMIT_KEY_PER_MINUTE: '2' });
    account = await signUp(gw.url);
    key = (await createKey(gw.url, account)).key;
  });
  after(async () => {
    await limited?.stop();
    await down?.stop();
    await gw?.close();
    await upstream?.close();
  });

  describe('planned routes', () => {
    const planned = routes.filter((spec) => spec.planned);

    it('are none: the invoice and withdrawal routes are served by the invoicing service', async () => {
      expect(planned.map((spec) => spec.path)).to.deep.equal([]);
      const money = routes.filter((spec) => /^\/(invoices|withdrawals)\b/.test(spec.path));
      expect(money).to.have.length.greaterThan(0);
      expect(money.every((spec) => spec.service === 'invoicing')).to.equal(true);
      const seen = upstream.seen.length;
      const res = await call(gw.url, 'GET', '/invoices/api/list', { headers: { 'x-api-key': key } });
      expect(res.status).to.equal(200);
      expect(upstream.seen.length).to.equal(seen + 1);
    });

    for (const spec of planned) {
      const method = spec.method.toUpperCase();
      it(`${method} ${spec.path} (${spec.auth}) answers 501 in the envelope without asking a service`, async () => {
        const seen = upstream.seen.length;
        const res = await call(gw.url, method, concrete(spec.path), {
          headers: credentialsFor(spec),
          ...(method === 'POST' ? { body: { amount: '1' } } : {}),
        });
        expect(res.status, res.text).to.equal(501);
        expect(res.body).to.deep.equal({ success: false, error: spec.planned, details: [] });
        expect(upstream.seen.length).to.equal(seen);
      });
    }

    it('GET /payments/cctp-fee is public: served without a credential, never the 401 of GET /payments/:id', async () => {
      const seen = upstream.seen.length;
      const fee = await call(gw.url, 'GET', '/payments/cctp-fee?destinationChain=ETH&productPrice=10');
      expect(fee.status).to.equal(200);
      expect(upstream.seen.length).to.equal(seen + 1);
      expect(upstream.seen.at(-1)).to.deep.include({
        url: '/payments/cctp-fee?destinationChain=ETH&productPrice=10',
      });
      expect(upstream.seen.at(-1)!.claims).to.include({ caller: 'public' });
      // Its query is checked here, like any route's.
      expect((await call(gw.url, 'GET', '/payments/cctp-fee')).status).to.equal(400);
      expect((await call(gw.url, 'GET', `/payments/${SAMPLE_ID}`)).status).to.equal(401);
    });

    it('authenticates the invoice and withdrawal routes like any route', async () => {
      for (const path of ['/invoices', '/withdrawals/api/list']) {
        const res = await call(gw.url, 'GET', path);
        expect(res.status, path).to.equal(401);
      }
    });
  });

  describe('forwarded requests', () => {
    const upperIds = (path: string) =>
      path.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, (u) => u.toUpperCase());

    it('forward every route with an id in upper case to its service with the id in its one canonical spelling', async () => {
      const forwarded = routes.filter((r) => r.path.includes('/:') && r.service !== 'gateway' && !r.planned);
      expect(forwarded.length).to.be.greaterThan(15);
      for (const spec of forwarded) {
        const method = spec.method.toUpperCase();
        const id = spec.path.startsWith('/checkout') ? `cs_live_${SAMPLE_ID}` : SAMPLE_ID;
        const canonical = spec.path.replace(/:[A-Za-z]+/g, id);
        const res = await call(gw.url, method, upperIds(canonical), {
          headers: credentialsFor(spec),
          ...(method === 'POST' || method === 'PUT' ? { body: {} } : {}),
        });
        expect(res.status, `${method} ${spec.path}: ${res.text}`).to.be.oneOf([200, 201]);
        expect(upstream.seen.at(-1)!.url, `${method} ${spec.path}`).to.equal(canonical);
      }
      // The query goes as it came.
      const logs = `/merchant-webhooks/api/${SAMPLE_ID}/logs?limit=5`;
      expect((await call(gw.url, 'GET', upperIds(logs), { headers: { 'x-api-key': key } })).status).to.equal(
        200,
      );
      expect(upstream.seen.at(-1)!.url).to.equal(logs);
    });

    it('answer the gateway’s own routes the same for an id in upper case', async () => {
      const lower = await call(gw.url, 'GET', `/merchants/${account.merchantPublicId}/info`);
      const upper = await call(gw.url, 'GET', upperIds(`/merchants/${account.merchantPublicId}/info`));
      expect(lower.status, lower.text).to.equal(200);
      expect(upper.status, upper.text).to.equal(200);
      expect(upper.body).to.deep.equal(lower.body);
    });

    it('answer a bad path parameter or query with 400 even while the owning service is down', async () => {
      const headers = { 'x-api-key': key };
      const badId = await call(down.url, 'GET', '/refunds/api/not-a-refund', { headers });
      expect(badId.status).to.equal(400);
      expect(badId.body.error).to.equal('Path parameter validation failed');
      expect(badId.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['id']);

      const unknown = await call(down.url, 'GET', '/payments/api/list?bogus=1', { headers });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.details).to.deep.equal([
        { path: 'bogus', message: 'Unknown query parameter "bogus"', code: 'unrecognized_parameter' },
      ]);

      const tooMany = await call(down.url, 'GET', '/payments/api/list?limit=201', { headers });
      expect(tooMany.status).to.equal(400);
      expect(tooMany.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['limit']);

      const nul = await call(down.url, 'GET', '/payments/api/list?search=abc%00def', { headers });
      expect(nul.status).to.equal(400);
      expect(nul.body.details[0]).to.include({ path: 'search', code: 'invalid_text' });

      const valid = await call(down.url, 'GET', '/payments/api/list?limit=200&status=pending', { headers });
      expect(valid.status).to.equal(503);
      expect(valid.body).to.deep.equal({ success: false, error: 'Service unavailable', details: [] });
    });

    it('leave the body to the owning service: it is streamed, not checked here', async () => {
      const headers = { 'x-api-key': key };
      const body = { not: 'a refund' };
      expect((await call(down.url, 'POST', '/refunds/api/create', { body, headers })).status).to.equal(503);
      const forwarded = await call(gw.url, 'POST', '/refunds/api/create', { body, headers });
      expect(forwarded.status).to.equal(201);
      expect(forwarded.body.data.body).to.equal(JSON.stringify(body));
    });

    it('keep the query exactly as sent', async () => {
      const res = await call(gw.url, 'GET', '/payments/api/list?status=pending&limit=5', {
        headers: { 'x-api-key': key },
      });
      expect(res.status).to.equal(200);
      expect(res.body.data.url).to.equal('/payments/api/list?status=pending&limit=5');
    });
  });

  describe('gateway-owned routes', () => {
    it('validate their input against the catalogue too', async () => {
      const unknown = await call(gw.url, 'GET', '/auth/me?verbose=1', {
        headers: bearer(account.accessToken),
      });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.details[0]).to.include({ path: 'verbose', code: 'unrecognized_parameter' });
      const nul = await call(gw.url, 'POST', '/api-keys', {
        body: { name: 'bad\u0000name' },
        headers: bearer(account.accessToken),
      });
      expect(nul.status).to.equal(400);
      expect(nul.body.details[0]).to.include({ path: 'name', code: 'invalid_text' });
    });
  });

  describe('Cache-Control: no-store (GET /wallets/api/balance)', () => {
    const balance = (base: string, headers: Record<string, string> = {}) =>
      call(base, 'GET', '/wallets/api/balance', { headers });

    it('is on the answer and on every refusal of the gateway', async () => {
      const answered = await balance(gw.url, { 'x-api-key': key });
      expect(answered.status).to.equal(200);
      expect(answered.headers.get('cache-control')).to.equal('no-store');

      const anonymous = await balance(gw.url);
      expect(anonymous.status).to.equal(401);
      expect(anonymous.headers.get('cache-control')).to.equal('no-store');

      const unavailable = await balance(down.url, { 'x-api-key': key });
      expect(unavailable.status).to.equal(503);
      expect(unavailable.headers.get('cache-control')).to.equal('no-store');

      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof balance>> | undefined;
      for (let i = 0; i < 3; i++) {
        last = await balance(limited.url, { 'x-api-key': key });
        statuses.push(last.status);
      }
      expect(statuses).to.deep.equal([200, 200, 429]);
      expect(last!.headers.get('cache-control')).to.equal('no-store');
    });

    it('is not on routes that do not ask for it', async () => {
      const res = await call(gw.url, 'GET', '/payments/api/list');
      expect(res.status).to.equal(401);
      expect(res.headers.get('cache-control')).to.equal(null);
    });
  });

  it('never routes service-to-service routes (404, no service asked)', async () => {
    const seen = upstream.seen.length;
    const relayers = await call(gw.url, 'GET', '/internal/relayers', { headers: { 'x-api-key': key } });
    expect(relayers.status).to.equal(404);
    expect(relayers.body).to.deep.equal({
      success: false,
      error: 'No route for GET /internal/relayers',
      details: [],
    });
    for (const spec of allRoutes.filter((r) => r.internal)) {
      const res = await call(gw.url, spec.method.toUpperCase(), concrete(spec.path));
      expect(res.status, spec.path).to.equal(404);
    }
    expect(upstream.seen.length).to.equal(seen);
  });

  describe('a credential of the other kind', () => {
    it('is 401 on a dashboard route with an API key, and on a key route with a bearer token', async () => {
      const keyOnDashboard = await call(gw.url, 'GET', '/payments', { headers: { 'x-api-key': key } });
      expect(keyOnDashboard.status).to.equal(401);
      expect(keyOnDashboard.body).to.deep.equal({ success: false, error: BEARER_REQUIRED, details: [] });

      const sessionOnKeyRoute = await call(gw.url, 'GET', '/payments/api/list', {
        headers: bearer(account.accessToken),
      });
      expect(sessionOnKeyRoute.status).to.equal(401);
      expect(sessionOnKeyRoute.body).to.deep.equal({ success: false, error: API_KEY_REQUIRED, details: [] });
    });

    it('is 403 for an API key on the API-key management routes', async () => {
      const res = await call(gw.url, 'GET', '/api-keys', { headers: { 'x-api-key': key } });
      expect(res.status).to.equal(403);
    });
  });

  describe('handlers and catalogue', () => {
    it('refuse to start when a gateway route of the catalogue has no handler', async () => {
      const extra = { ...routeById('me'), operationId: 'meAgain', path: '/auth/me-again' };
      const failure = await startFailure([...routes, extra]);
      expect(failure?.message).to.match(/catalogue route meAgain \(GET \/auth\/me-again\) has no handler/);
    });

    it('refuse to start when a handler has no gateway route in the catalogue', async () => {
      const failure = await startFailure(routes.filter((spec) => spec.operationId !== 'me'));
      expect(failure?.message).to.match(/handler me has no catalogue route/);
    });

    it('leave service-to-service routes out even when the table given has them', async () => {
      const withInternal = await startTestGateway(await closedPortUrl(), {}, { catalogue: allRoutes });
      try {
        expect((await call(withInternal.url, 'GET', '/internal/relayers')).status).to.equal(404);
      } finally {
        await withInternal.close();
      }
    });
  });
});
