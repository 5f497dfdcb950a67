import { expect } from 'chai';
import type { Express } from 'express';
import type { ErrorEnvelope } from '@stablepay/contracts';
import { AppError } from '../../src/errors.js';
import { createHttpApp, type HttpApp } from '../../src/http/app.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createMetrics } from '../../src/metrics.js';
import { quietLogger } from '../../src/testing/backends.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789abcdef';

describe('HTTP bootstrap', () => {
  let http: HttpApp;
  let server: RunningServer;
  let dependencyUp = true;

  before(async () => {
    http = createHttpApp({
      service: 'test',
      logger: quietLogger(),
      metrics: createMetrics('test', false),
      readiness: [
        {
          name: 'db',
          check: async () => {
            if (!dependencyUp) throw new Error('down');
          },
        },
      ],
      bodyLimit: '1kb',
      metricsToken: METRICS_TOKEN,
    });
    const app: Express = http.app;
    app.post('/echo', (req, res) => void res.json({ success: true, data: req.body }));
    app.get('/boom', () => {
      throw new Error('SELECT secret FROM users -- at Object.<anonymous> (/srv/app.js:1:1)');
    });
    app.get('/conflict', () => {
      throw new AppError('conflict', 'Already done', [{ path: 'id', message: 'taken', code: 'conflict' }]);
    });
    app.get('/limited', () => {
      throw new AppError('rate_limited', 'Too many requests', [], 7);
    });
    http.finalize();
    server = await listen(app, 0, '127.0.0.1');
  });
  after(() => server.close());

  const call = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

  it('answers /healthz while alive and /readyz from real checks', async () => {
    expect((await call('/healthz')).status).to.equal(200);
    expect((await call('/readyz')).status).to.equal(200);
    dependencyUp = false;
    const r = await call('/readyz');
    expect(r.status).to.equal(503);
    expect(await r.json()).to.deep.include({ status: 'not_ready' });
    dependencyUp = true;
  });

  it('gives 400 in the envelope for malformed JSON', async () => {
    const r = await call('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect(r.status).to.equal(400);
    const body = (await r.json()) as ErrorEnvelope;
    expect(body.success).to.equal(false);
    expect(body.error).to.equal('Malformed JSON body');
    expect(body.details).to.be.an('array').with.length(1);
  });

  it('gives 413 in the envelope for an oversized body', async () => {
    const r = await call('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(5000) }),
    });
    expect(r.status).to.equal(413);
    expect(await r.json()).to.deep.equal({ success: false, error: 'Request body too large', details: [] });
  });

  it('gives 404 in the envelope for unknown routes', async () => {
    const r = await call('/nowhere');
    expect(r.status).to.equal(404);
    expect(((await r.json()) as ErrorEnvelope).success).to.equal(false);
  });

  it('gives 500 without internals for unexpected failures', async () => {
    const r = await call('/boom');
    expect(r.status).to.equal(500);
    const text = await r.text();
    expect(JSON.parse(text)).to.deep.equal({ success: false, error: 'Internal server error', details: [] });
    expect(text).to.not.match(/SELECT|secret|app\.js/);
  });

  it('maps error kinds to their status, details and Retry-After', async () => {
    const r = await call('/conflict');
    expect(r.status).to.equal(409);
    expect(((await r.json()) as ErrorEnvelope).details).to.deep.equal([
      { path: 'id', message: 'taken', code: 'conflict' },
    ]);
    const l = await call('/limited');
    expect(l.status).to.equal(429);
    expect(l.headers.get('retry-after')).to.equal('7');
  });

  it('echoes a safe X-Request-Id and replaces an unsafe one', async () => {
    const ok = await call('/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(ok.headers.get('x-request-id')).to.equal('abc-123');
    const bad = await call('/healthz', { headers: { 'x-request-id': 'a b;<script>' } });
    expect(bad.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('exposes request histograms by route template on /metrics, to the metrics token only', async () => {
    await call('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const scrape = await call('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scrape.status).to.equal(200);
    const text = await scrape.text();
    expect(text).to.match(/http_request_duration_seconds_count\{[^}]*route="\/echo"[^}]*status="200"/);

    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: METRICS_TOKEN }]) {
      const refused = await call('/metrics', { headers });
      expect(refused.status).to.equal(401);
      expect(refused.headers.get('www-authenticate')).to.equal('Bearer realm="metrics"');
      expect(await refused.json()).to.deep.equal({
        success: false,
        error: 'Metrics need the metrics bearer token',
        details: [],
      });
    }
  });

  it('does not serve /metrics at all without a metrics token', async () => {
    const open = createHttpApp({
      service: 'test',
      logger: quietLogger(),
      metrics: createMetrics('test', false),
      readiness: [],
    });
    open.finalize();
    const bare = await listen(open.app, 0, '127.0.0.1');
    try {
      const res = await fetch(`${bare.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.status).to.equal(404);
      expect(await res.json()).to.deep.include({ success: false, error: 'No route for GET /metrics' });
    } finally {
      await bare.close();
    }
  });

  it('turns /readyz to 503 once shutdown starts', async () => {
    http.markNotReady();
    expect((await call('/readyz')).status).to.equal(503);
    expect((await call('/healthz')).status).to.equal(200);
  });
});
