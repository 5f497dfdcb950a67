import { request as httpRequest } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { MetricValue } from 'prom-client';
import { createDatabase } from '../../src/db/database.js';
import { instrumentDatabase } from '../../src/db/instrument.js';
import { createHttpApp } from '../../src/http/app.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { createTestDatabase, quietLogger, type TestDatabase } from '../../src/testing/backends.js';

/** Samples recorded in a histogram (all labels) and those above `seconds`. */
const histogramCounts = async (metrics: Metrics, name: string, seconds: number) => {
  const values = (await metrics.registry.getSingleMetric(name)!.get()).values as Array<
    MetricValue<string> & { metricName?: string }
  >;
  const count = values.filter((v) => v.metricName === `${name}_count`).reduce((n, v) => n + v.value, 0);
  const atMost = values
    .filter((v) => v.metricName === `${name}_bucket` && Number(v.labels.le) === seconds)
    .reduce((n, v) => n + v.value, 0);
  return { count, above: count - atMost };
};

const gauge = async (metrics: Metrics, name: string) =>
  (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('measurements of the tail', function () {
  this.timeout(30_000);

  it('the event-loop delay histogram shows a 100 ms stall', async () => {
    const metrics = createMetrics('loop');
    await sleep(50);
    await metrics.registry.metrics();
    const before = await histogramCounts(metrics, 'nodejs_eventloop_delay_seconds', 0.075);
    const until = performance.now() + 100;
    while (performance.now() < until) {
      // The synchronous step under test: nothing else runs for 100 ms.
    }
    await sleep(50);
    await metrics.registry.metrics();
    const after = await histogramCounts(metrics, 'nodejs_eventloop_delay_seconds', 0.075);
    expect(after.count).to.be.greaterThan(before.count);
    expect(after.above - before.above).to.be.at.least(1);
    // The sum moved by about the stall.
    expect(await metrics.registry.metrics()).to.match(
      /^nodejs_eventloop_delay_seconds_sum{service="loop"} /m,
    );
  });

  it('counts every GC pause, not one per batch the observer delivers', async () => {
    const metrics = createMetrics('gc');
    let seen = 0;
    const observer = new PerformanceObserver((list) => (seen += list.getEntries().length));
    observer.observe({ entryTypes: ['gc'] });
    // Garbage until a few batches of pauses have been delivered (the heap's size varies by run).
    let keep: object[] = [];
    for (let round = 0; round < 50 && seen < 20; round++) {
      for (let i = 0; i < 5e5; i++) {
        keep.push({ i, s: `x${i}` });
        if (keep.length > 1000) keep = [];
      }
      await sleep(10);
    }
    await sleep(50);
    observer.disconnect();
    const { count } = await histogramCounts(metrics, 'nodejs_gc_duration_seconds', 1);
    expect(seen).to.be.at.least(20);
    expect(count).to.be.at.least(seen);
  });

  describe('on PostgreSQL', () => {
    let tdb: TestDatabase;
    let db: Knex;
    let metrics: Metrics;
    let service: RunningServer;
    let gateway: RunningServer;

    before(async () => {
      tdb = await createTestDatabase();
      db = await createDatabase({ url: tdb.url, schema: 'tail_metrics', poolMax: 2 });
      metrics = createMetrics('svc', false);
      instrumentDatabase(db, metrics);
      const http = createHttpApp({ service: 'svc', logger: quietLogger(), metrics, readiness: [] });
      http.app.get('/sleepy', async (_req, res) => {
        await db.raw('select pg_sleep(0.05)');
        res.json({ success: true });
      });
      http.finalize();
      service = await listen(http.app, 0, '127.0.0.1');
      gateway = await startProxy(service.port);
    });
    after(async () => {
      await gateway?.close();
      await service?.close();
      await db?.destroy();
      await tdb?.drop();
    });

    it('a query that waits for a held pool shows in the acquire histogram and the pending gauge', async () => {
      const before = await histogramCounts(metrics, 'db_pool_acquire_seconds', 0.1);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      // Both connections of the pool, each inside an open transaction.
      const holders = [1, 2].map(() => db.transaction(async (trx) => (await trx.raw('select 1'), held)));
      await sleep(100);
      // A knex query runs only once something awaits it.
      const waiting = db.raw('select 1').then(() => undefined);
      await sleep(150);
      const pending = await gauge(metrics, 'db_pool_pending_acquires');
      release();
      expect(pending).to.equal(1);
      await Promise.all([...holders, waiting]);
      const after = await histogramCounts(metrics, 'db_pool_acquire_seconds', 0.1);
      expect(after.above - before.above).to.equal(1);
      expect(await gauge(metrics, 'db_pool_pending_acquires')).to.equal(0);
    });

    it("a service's answer carries its database and own time in Server-Timing", async () => {
      const res = await fetch(`${service.url}/sleepy`);
      expect(res.status).to.equal(200);
      const timing = parseServerTiming(res.headers.get('server-timing'));
      expect(timing.get('svc db')).to.be.within(45, 1000);
      expect(timing.get('svc app')).to.be.at.least(timing.get('svc db')!);
      expect(timing.has('svc pool')).to.equal(true);
      const stages = await metrics.registry.getSingleMetric('http_request_stage_seconds')!.get();
      expect(stages.values.some((v) => v.labels.stage === 'db' && v.labels.route === '/sleepy')).to.equal(
        true,
      );
    });

    it("through a proxy, the service's entries pass and the proxy adds its upstream time", async () => {
      const res = await fetch(`${gateway.url}/sleepy`);
      expect(res.status).to.equal(200);
      const timing = parseServerTiming(res.headers.get('server-timing'));
      expect(timing.get('svc db')).to.be.within(45, 1000);
      expect(timing.get('gw upstream')).to.be.at.least(timing.get('svc app')!);
      expect(timing.get('gw app')).to.be.at.least(timing.get('gw upstream')!);
      expect(timing.get('gw before_upstream')).to.be.at.least(0);
    });

    it("a public-facing process's own answers carry no timing; the ones it proxied do", async () => {
      const own = await fetch(`${gateway.url}/own`);
      expect(own.status).to.equal(200);
      expect(own.headers.get('server-timing')).to.equal(null);
      const proxied = parseServerTiming((await fetch(`${gateway.url}/sleepy`)).headers.get('server-timing'));
      expect(proxied.has('gw upstream')).to.equal(true);
    });

    it('an answer without queries has only its own time', async () => {
      const res = await fetch(`${service.url}/healthz`);
      expect([...parseServerTiming(res.headers.get('server-timing')).keys()]).to.deep.equal(['svc app']);
    });
  });
});

/** `name;desc="service";dur=x` entries as "service name" → ms. */
const parseServerTiming = (header: string | null): Map<string, number> => {
  const out = new Map<string, number>();
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const desc = params
      .find((p) => p.startsWith('desc='))
      ?.slice(5)
      .replaceAll('"', '');
    const dur = params.find((p) => p.startsWith('dur='))?.slice(4);
    if (name && dur !== undefined) out.set(`${desc} ${name}`, Number(dur));
  }
  return out;
};

/** A minimal gateway on the platform's app: answers /own itself, proxies /sleepy copying the answer's headers. */
const startProxy = async (upstreamPort: number): Promise<RunningServer> => {
  const http = createHttpApp({
    service: 'gw',
    logger: quietLogger(),
    metrics: createMetrics('gw', false),
    readiness: [],
    serverTiming: 'proxied',
  });
  http.app.get('/own', (_req, res) => void res.json({ success: true }));
  http.app.get('/sleepy', (req, res) => {
    const upstream = httpRequest({ host: '127.0.0.1', port: upstreamPort, path: req.path }, (answer) => {
      res.status(answer.statusCode ?? 502);
      const timing = answer.headers['server-timing'];
      if (timing) res.setHeader('server-timing', timing);
      res.setHeader('content-type', answer.headers['content-type'] ?? 'application/json');
      answer.pipe(res);
    });
    upstream.end();
  });
  http.finalize();
  return listen(http.app, 0, '127.0.0.1');
};
