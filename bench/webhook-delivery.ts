/**
 * Webhook delivery throughput and latency: the notifier (its own process, on PostgreSQL and
 * RabbitMQ) fans events out to 100 endpoints on a local HTTPS receiver, every request signed;
 * beside it, a plain HTTPS POST loop to the same receiver, as the ceiling.
 *
 *   npm run build && node --import tsx bench/webhook-delivery.ts
 *
 * Env: ENDPOINTS (100), BURST_EVENTS (200), PACED_EVENTS_PER_SECOND (5), PACED_SECONDS (5),
 * CONCURRENCY (64, the notifier's default pool and the ceiling loop's), CPU_PROF_DIR (the notifier
 * writes a CPU profile there; summarise it with bench/profile-summary.ts), NOTIFIER_ENTRY (the
 * notifier's entry point, services/notifier/dist/main.js; another build's, to compare in turns).
 *
 * Besides rates, it prints CPU time per delivery of the notifier, of its PostgreSQL backends and
 * of this process (the receiver), read from /proc: those hold still when other work shares the
 * machine, rates do not; and what the deliveries wrote to the attempts and deliveries tables (rows
 * updated in place, HOT, and bytes of table and index per delivery), which holds still too. The
 * ceiling's client runs on a thread of this process, beside the receiver.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import type { PaymentCompletedData } from '@stablepay/contracts';
import { AmqpBus, INTERNAL_TOKEN_HEADER, buildEvent, signInternalToken } from '@stablepay/platform';
import { createTestDatabase, quietLogger } from '@stablepay/platform/testing';
import { benchBroker } from './backends.js';

const ENDPOINTS = Number(process.env.ENDPOINTS ?? 100);
const BURST_EVENTS = Number(process.env.BURST_EVENTS ?? 200);
const PACED_RATE = Number(process.env.PACED_EVENTS_PER_SECOND ?? 5);
const PACED_SECONDS = Number(process.env.PACED_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const NOTIFIER_PORT = 18105;
const INTERNAL_SECRET = randomBytes(32).toString('hex');

/** User + system CPU ms a process has used so far, from /proc (Linux); 0 once it is gone. */
const cpuMsOf = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
};
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

const certificate = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tls-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ], { stdio: 'ignore' }); // prettier-ignore
  return {
    key: readFileSync(join(dir, 'key.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
    file: join(dir, 'cert.pem'),
  };
};

/** The merchants' side: counts deliveries and notes when each (event, endpoint) arrived. */
const startReceiver = async (tls: { key: Buffer; cert: Buffer }) => {
  const arrivals = new Map<string, number>();
  /** Distinct endpoints reached, per event id. */
  const perEvent = new Map<string, number>();
  let received = 0;
  let checked = 0;
  const secrets = new Map<string, string>();
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received++;
      const eventId = req.headers['x-service-event-id'];
      if (eventId) {
        const key = `${String(eventId)} ${req.url}`;
        if (!arrivals.has(key)) {
          arrivals.set(key, performance.now());
          perEvent.set(String(eventId), (perEvent.get(String(eventId)) ?? 0) + 1);
        }
        const secret = secrets.get(req.url ?? '');
        // Every 50th request is verified as a receiver would, to show the signatures are right.
        if (secret && received % 50 === 0) {
          const raw = Buffer.concat(chunks).toString('utf8');
          const want = `sha256=${createHmac('sha256', secret).update(`${req.headers['x-service-timestamp']}.${raw}`).digest('hex')}`;
          if (want !== req.headers['x-service-signature']) throw new Error('bad signature');
          checked++;
        }
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  // Idle connections are kept a minute (as nginx's 75 s would), so the pauses between the phases
  // do not make the notifier connect again; node's default is 5 s.
  server.keepAliveTimeout = 60_000;
  let connections = 0;
  server.on('secureConnection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    arrivals,
    perEvent,
    secrets,
    received: () => received,
    checked: () => checked,
    connections: () => connections,
    close: () => server.close(),
  };
};

const paymentData = (merchantId: string): PaymentCompletedData => ({
  payment_id: randomUUID(),
  merchant_id: merchantId,
  amount: '25.500000',
  currency: 'USDC',
  status: 'completed',
  tx_hash: `0x${randomBytes(32).toString('hex')}`,
  from_address: `0x${randomBytes(20).toString('hex')}`,
  to_address: `0x${randomBytes(20).toString('hex')}`,
  source_chain: 'BASE',
  destination_chain: null,
  is_cross_chain: false,
  customer_email: null,
  reference: 'bench',
  metadata: { bench: true },
  completed_at: new Date().toISOString(),
});

/**
 * The ceiling: the same receiver, plain HTTPS POSTs, CONCURRENCY in flight, for `ms`. The client
 * runs on a thread of its own, as the notifier runs in a process of its own: with both on the
 * receiver's thread, one core did the work of both sides and the ceiling was held below what the
 * deliveries had. Its CPU is this process's (threads included), receiver and client together.
 */
const ceiling = async (url: string, ca: Buffer, ms: number) => {
  const body = JSON.stringify({
    event: 'payment.completed',
    timestamp: new Date().toISOString(),
    data: paymentData(randomUUID()),
  });
  const cpuBefore = ownCpuMs();
  const worker = new Worker(new URL('./plain-post-loop.mjs', import.meta.url), {
    workerData: { url, ca: ca.toString('utf8'), body, concurrency: CONCURRENCY, ms },
    execArgv: [],
  });
  const { done, elapsedMs } = await new Promise<{ done: number; elapsedMs: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return { perSecond: done / (elapsedMs / 1000), cpuPerRequest: (ownCpuMs() - cpuBefore) / done };
};

/** Updates of the delivery tables that were HOT, and their bytes (table, indexes) per delivery. */
const tableWrites = async (db: pg.Client, deliveries: number) => {
  const { rows } = await db.query<{ relname: string; upd: string; hot: string; heap: string; idx: string }>(
    `select relname, n_tup_upd as upd, n_tup_hot_upd as hot, pg_table_size(relid) as heap,
            pg_indexes_size(relid) as idx
       from pg_stat_user_tables where relname in ('webhook_attempts', 'webhook_deliveries') order by relname`,
  );
  const perDelivery = (v: string) => (Number(v) / deliveries).toFixed(0);
  return `writes (warm-up, paced and burst): ${rows
    .map(
      (r) =>
        `${r.relname} ${r.hot}/${r.upd} updates HOT, ${perDelivery(r.heap)} B table + ${perDelivery(r.idx)} B indexes per delivery`,
    )
    .join('; ')}`;
};

const main = async () => {
  const tls = certificate();
  const rx = await startReceiver(tls);
  const db = await createTestDatabase();
  const { amqpUrl, prefix, release } = await benchBroker();
  const profile = process.env.CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`, '--cpu-prof-name=notifier.cpuprofile']
    : [];
  const entry = process.env.NOTIFIER_ENTRY ?? 'services/notifier/dist/main.js';
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...profile, ...loader, entry], {
    env: {
      ...process.env,
      PORT: String(NOTIFIER_PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      INTERNAL_TOKEN_SECRET: INTERNAL_SECRET,
      WEBHOOK_SECRET_KEK: randomBytes(32).toString('hex'),
      ALLOW_INSECURE_WEBHOOKS: 'true',
      WEBHOOK_EXTRA_CA_FILE: tls.file,
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      WEBHOOK_MAX_ENDPOINTS: String(Math.max(20, ENDPOINTS)),
      MAIL_DIR: mkdtempSync(join(tmpdir(), 'bench-mail-')),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const publisher = new AmqpBus({ url: amqpUrl, prefix, logger: quietLogger('bench') });
  try {
    const base = `http://127.0.0.1:${NOTIFIER_PORT}`;
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 600) throw new Error('notifier did not become ready');
      await sleep(100);
    }
    const merchantId = randomUUID();
    const token = signInternalToken(
      INTERNAL_SECRET,
      { caller: 'api_key', merchantId, apiKeyId: randomUUID(), scopes: ['webhooks:write'] },
      3600,
    );
    for (let i = 0; i < ENDPOINTS; i++) {
      const path = `/ep${i}`;
      const res = await fetch(`${base}/merchant-webhooks/api/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: token },
        body: JSON.stringify({ url: `https://127.0.0.1:${rx.port}${path}`, events: ['payment.completed'] }),
      });
      if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${await res.text()}`);
      rx.secrets.set(path, ((await res.json()) as { data: { secret: string } }).data.secret);
    }
    await publisher.connect();
    const published = new Map<string, number>();
    const publish = async () => {
      const event = buildEvent({
        type: 'payment.completed',
        producer: 'bench',
        merchantId,
        data: paymentData(merchantId),
      });
      published.set(event.id, performance.now());
      await publisher.publish({
        id: event.id,
        type: event.type,
        body: event as unknown as Record<string, unknown>,
      });
      return event.id;
    };
    const waitForAll = async (ids: string[]) => {
      const want = ids.length * ENDPOINTS;
      const deadline = performance.now() + 300_000;
      const count = () => ids.reduce((n, id) => n + (rx.perEvent.get(id) ?? 0), 0);
      while (count() < want) {
        if (performance.now() > deadline) throw new Error(`only ${count()} of ${want} deliveries arrived`);
        await sleep(50);
      }
    };
    // CPU of the notifier, of the PostgreSQL backends serving its database, and of this process.
    const backends = new pg.Client({ connectionString: db.url });
    await backends.connect();
    const cpuNow = async () => {
      const { rows } = await backends.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      return {
        notifier: cpuMsOf(child.pid!),
        pg: new Map(rows.map((r) => [r.pid, cpuMsOf(r.pid)])),
        self: ownCpuMs(),
      };
    };
    const cpuPerDelivery = async (before: Awaited<ReturnType<typeof cpuNow>>, deliveries: number) => {
      const after = await cpuNow();
      let pgMs = 0;
      for (const [pid, ms] of after.pg) pgMs += ms - (before.pg.get(pid) ?? 0);
      const per = (v: number) => (v / deliveries).toFixed(3);
      return `CPU ms/delivery: notifier ${per(after.notifier - before.notifier)}, its PostgreSQL backends ${per(pgMs)}, receiver ${per(after.self - before.self)}`;
    };
    const latencies = (ids: string[]) =>
      ids
        .flatMap((id) =>
          [...Array(ENDPOINTS).keys()].map((i) => rx.arrivals.get(`${id} /ep${i}`)! - published.get(id)!),
        )
        .sort((a, b) => a - b);

    // Warm-up: connections, TLS sessions, query plans.
    await waitForAll([await publish(), await publish()]);

    // Latency at a steady pace well below capacity.
    const paced: string[] = [];
    const pacedCpu = await cpuNow();
    const pacedStart = performance.now();
    for (let i = 0; i < PACED_RATE * PACED_SECONDS; i++) {
      paced.push(await publish());
      const next = pacedStart + ((i + 1) * 1000) / PACED_RATE;
      await sleep(Math.max(0, next - performance.now()));
    }
    await waitForAll(paced);
    const pacedLat = latencies(paced);
    const pacedCpuText = await cpuPerDelivery(pacedCpu, pacedLat.length);

    // The ceiling is measured right before and right after the burst, and the two averaged: on a
    // machine other work shares, the load can change within a run.
    const ceilingUrl = `https://127.0.0.1:${rx.port}/ceiling`;
    const connectionsBefore = rx.connections();
    const plainBefore = await ceiling(ceilingUrl, tls.cert, 5_000);
    const ceilingConnections = rx.connections() - connectionsBefore;

    // Throughput: a burst of events, each to every endpoint.
    const burst: string[] = [];
    const burstCpu = await cpuNow();
    const burstStart = performance.now();
    for (let i = 0; i < BURST_EVENTS; i++) burst.push(await publish());
    await waitForAll(burst);
    const burstLast = Math.max(
      ...burst.flatMap((id) => [...Array(ENDPOINTS).keys()].map((i) => rx.arrivals.get(`${id} /ep${i}`)!)),
    );
    const burstSeconds = (burstLast - burstStart) / 1000;
    const burstLat = latencies(burst);
    const burstCpuText = await cpuPerDelivery(burstCpu, burstLat.length);

    const notifierConnections = rx.connections() - ceilingConnections;
    const plainAfter = await ceiling(ceilingUrl, tls.cert, 5_000);
    // Read after the second ceiling: backends report their table counters up to a second late.
    const writesText = await tableWrites(backends, pacedLat.length + burstLat.length + 2 * ENDPOINTS);
    await backends.end();
    const plain = {
      perSecond: (plainBefore.perSecond + plainAfter.perSecond) / 2,
      cpuPerRequest: (plainBefore.cpuPerRequest + plainAfter.cpuPerRequest) / 2,
    };

    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const signedPerSecond = burstLat.length / burstSeconds;
    console.log(
      `\nwebhook delivery, ${ENDPOINTS} endpoints, pool ${CONCURRENCY}, PostgreSQL + RabbitMQ, local HTTPS receiver`,
    );
    console.log(
      `  paced ${PACED_RATE} events/s × ${ENDPOINTS} endpoints (${pacedLat.length} deliveries): event→delivery p50 ${ms(percentile(pacedLat, 0.5))}, p99 ${ms(percentile(pacedLat, 0.99))}`,
    );
    console.log(`    ${pacedCpuText}`);
    console.log(
      `  burst ${BURST_EVENTS} events × ${ENDPOINTS} endpoints (${burstLat.length} deliveries): ${signedPerSecond.toFixed(0)} signed deliveries/s; event→delivery p50 ${ms(percentile(burstLat, 0.5))}, p99 ${ms(percentile(burstLat, 0.99))}`,
    );
    console.log(`    ${burstCpuText}`);
    console.log(`    ${writesText}`);
    console.log(
      `  ceiling: plain HTTPS POST loop to the same receiver, ${CONCURRENCY} in flight: ${plain.perSecond.toFixed(0)} requests/s (${plainBefore.perSecond.toFixed(0)} before the burst, ${plainAfter.perSecond.toFixed(0)} after; client and receiver together ${plain.cpuPerRequest.toFixed(3)} CPU ms/request)`,
    );
    console.log(
      `  ratio: signed deliveries ${((signedPerSecond / plain.perSecond) * 100).toFixed(0)}% of the plain loop (goal ≥ 70%); paced p99 ${ms(percentile(pacedLat, 0.99))} (goal < 100 ms)`,
    );
    console.log(
      `  signatures verified at the receiver (every 50th request): ${rx.checked()}, all valid; TLS connections the notifier opened: ${notifierConnections}`,
    );
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await publisher.close().catch(() => undefined);
    rx.close();
    await db.drop();
    await release();
  }
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
