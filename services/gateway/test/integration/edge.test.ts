import { expect } from 'chai';
import {
  bearer,
  call,
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

const WIDGET = 'https://shop.example';
const DASHBOARD = 'https://dashboard.stablepay.example';

describe('gateway: CORS, security headers, rate limits, API description', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let limited: Replica;
  let account: Account;
  let key: string;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url, { CORS_DASHBOARD_ORIGINS: DASHBOARD });
    // Its public route limit is counted on GET /payments/cctp-fee, served here by the echo upstream.
    limited = await startReplica(
      gw,
      upstream.url,
      { RATE_LIMIT_PUBLIC_PER_MINUTE: '3', RATE_LIMIT_AUTH_PER_MINUTE: '2', RATE_LIMIT_KEY_PER_MINUTE: '2' },
      { catalogue: routingCatalogue },
    );
    account = await signUp(gw.url);
    key = (await createKey(gw.url, account)).key;
  });
  after(async () => {
    await limited?.stop();
    await gw?.close();
    await upstream?.close();
  });

  describe('CORS', () => {
    const preflight = (path: string, method: string, origin: string, headers = 'content-type') =>
      fetch(`${gw.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': headers,
        },
      });

    it('opens public routes to every origin, without credentials', async () => {
      const pre = await preflight('/payments/create-public', 'POST', WIDGET, 'content-type,idempotency-key');
      expect(pre.status).to.equal(204);
      expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
      expect(pre.headers.get('access-control-allow-credentials')).to.equal(null);
      expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).to.include('idempotency-key');

      const res = await call(
        gw.url,
        'GET',
        `/payments/${'1'.repeat(8)}-1111-4111-8111-${'1'.repeat(12)}/status`,
        { headers: { origin: WIDGET } },
      );
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('access-control-expose-headers')).to.include('X-Request-Id');
    });

    it('gives key routes no CORS at all', async () => {
      const pre = await preflight('/payments/api/list', 'GET', WIDGET, 'x-api-key');
      expect(pre.headers.get('access-control-allow-origin')).to.equal(null);
      const res = await call(gw.url, 'GET', '/payments/api/list', {
        headers: { origin: WIDGET, 'x-api-key': key },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    });

    it('allows only the configured dashboard origins on jwt and auth routes', async () => {
      const pre = await preflight('/auth/login', 'POST', DASHBOARD);
      expect(pre.headers.get('access-control-allow-origin')).to.equal(DASHBOARD);
      const jwtPre = await preflight('/api-keys', 'GET', DASHBOARD, 'authorization');
      expect(jwtPre.headers.get('access-control-allow-origin')).to.equal(DASHBOARD);
      expect(jwtPre.headers.get('access-control-allow-headers')?.toLowerCase()).to.include('authorization');
      const me = await call(gw.url, 'GET', '/auth/me', {
        headers: { origin: DASHBOARD, ...bearer(account.accessToken) },
      });
      expect(me.headers.get('access-control-allow-origin')).to.equal(DASHBOARD);
      const foreign = await preflight('/auth/login', 'POST', WIDGET);
      expect(foreign.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });

  it('sets security headers on API answers', async () => {
    const res = await call(gw.url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } });
    expect(res.headers.get('content-security-policy')).to.include("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('strict-transport-security')).to.be.a('string');
    expect(res.headers.get('x-powered-by')).to.equal(null);
  });

  describe('rate limits', () => {
    it('limits public routes per IP with 429, Retry-After and RateLimit headers', async () => {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await call(limited.url, 'GET', '/payments/cctp-fee?destinationChain=ETH&productPrice=1');
        statuses.push(last.status);
      }
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
      expect(last!.body).to.deep.equal({ success: false, error: 'Too many requests', details: [] });
      expect(Number(last!.headers.get('retry-after'))).to.be.within(1, 60);
      expect(last!.headers.get('ratelimit-policy')).to.equal('3;w=60');
      expect(last!.headers.get('ratelimit')).to.match(/limit=3, remaining=0, reset=\d+/);
    });

    it('limits login attempts per IP more tightly', async () => {
      const body = { email: 'nobody@example.com', password: 'whatever-password' };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await call(limited.url, 'POST', '/auth/login', { body })).status);
      expect(statuses).to.deep.equal([401, 401, 429]);
    });

    it('limits each API key on its own', async () => {
      const other = (await createKey(gw.url, account, 'second')).key;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (await call(limited.url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } })).status,
        );
      }
      expect(statuses).to.deep.equal([200, 200, 429]);
      const fresh = await call(limited.url, 'GET', '/payments/api/list', { headers: { 'x-api-key': other } });
      expect(fresh.status).to.equal(200);
    });
  });

  describe('API description', () => {
    it('serves /openapi.json with this gateway as server', async () => {
      const res = await call(gw.url, 'GET', '/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.body.openapi).to.match(/^3\./);
      expect(res.body.servers).to.deep.equal([{ url: gw.url }]);
      expect(res.body.paths).to.have.property('/payments/create-public');
      expect(res.body.paths).to.have.property('/api-keys/{id}');
    });

    it('serves swagger-ui at /docs from this origin, pointed at /openapi.json', async () => {
      const page = await fetch(`${gw.url}/docs`);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      const html = await page.text();
      expect(html).to.include('/docs/swagger-ui-bundle.js');
      expect(html).not.to.match(/https?:\/\//);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).to.include("script-src 'self'");

      const init = await (await fetch(`${gw.url}/docs/swagger-initializer.js`)).text();
      expect(init).to.include("url: '/openapi.json'");
      const bundle = await fetch(`${gw.url}/docs/swagger-ui-bundle.js`);
      expect(bundle.status).to.equal(200);
      expect(bundle.headers.get('content-type')).to.match(/javascript/);
      await bundle.arrayBuffer();
      expect((await fetch(`${gw.url}/docs/package.json`)).status).to.equal(404);
    });
  });
});
