/**
 * POST /payments/create-public throughput and latency, through the gateway and directly against the
 * payments service, on PostgreSQL and RabbitMQ, at 32 and 128 connections; beside it, in the same run,
 * pgbench running the statements the service runs for it (the payment and its outbox row, in one
 * transaction) with 32 clients, as the reference.
 *
 *   npm run bench:payments            (DURATION=10 seconds per run by default; CONNECTIONS=32,128)
 *
 * PACED_FRACTIONS=0.5,0.25 paces the gateway at those fractions of its peak (0.5 by default);
 * PG_WAITS=1 samples PostgreSQL's wait events during them and prints the moments it stalled;
 * SERVICE_NODE_ARGS='--trace-gc' passes flags to the services' node processes and
 * SERVICE_STDOUT_DIR=dir keeps what they print; CPU_PROF_DIR=dir writes their CPU profiles.
 *
 * The gateway and the payments service run as separate processes, as deployed, each on a fresh
 * database, with a fresh queue prefix; every request carries a new txHash, so each one inserts a
 * payment and an outbox row that the relay publishes to RabbitMQ with confirms. The last runs pace the
 * gateway at fractions of the rate it reached with the first connection count, for latency below
 * saturation, with each stage's median and the slowest requests' stages from their Server-Timing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { signInternalToken } from '@stablepay/platform';
import { createTestDatabase } from '@stablepay/platform/testing';
import { benchBroker } from './backends.js';
import { pgbench } from './pgbench.js';
import { describeStalls, sampleWaits } from './pg-waits.js';
import { Agent, request as undiciRequest } from 'undici';
import { cpuByGroup, cpuMsOf, cpuSpentPer, percentile } from './stats.js';
import {
  describeTail,
  scrapeMetrics,
  medianBreakdown,
  slowestBreakdown,
  slowWindows,
  tailFigures,
  type Scrape,
} from './service-metrics.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = (process.env.CONNECTIONS ?? '32,128').split(',').map(Number);
/** The paced runs, as fractions of the gateway's peak rate with the first connection count. */
const PACED_FRACTIONS = (process.env.PACED_FRACTIONS ?? '0.5').split(',').map(Number);
/** Samples PostgreSQL's wait events during the paced runs and prints its stalls (bench/pg-waits.ts). */
const PG_WAITS = process.env.PG_WAITS === '1';
/** Extra flags for the services' node processes (`--trace-gc`, GC sizes), space-separated. */
const SERVICE_NODE_ARGS = (process.env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
const GATEWAY_PORT = 18080;
const PAYMENTS_PORT = 18101;
const INTERNAL_TOKEN_SECRET = randomBytes(32).toString('hex');
const METRICS_TOKEN = randomBytes(32).toString('hex');
const SERVICES = [
  { name: 'payments', url: `http://127.0.0.1:${PAYMENTS_PORT}` },
  { name: 'gateway', url: `http://127.0.0.1:${GATEWAY_PORT}` },
];

/** Both services' /metrics at once; scraping also starts prom-client's next "max since" window. */
const scrapeAll = (): Promise<Scrape[]> =>
  Promise.all(SERVICES.map((s) => scrapeMetrics(s.url, METRICS_TOKEN)));

/** Each service's event-loop delay p99 / max, pool wait p99 and GC pauses over a run, as table cells. */
const tailColumns = (before: Scrape[], after: Scrape[]): Record<string, string> =>
  Object.fromEntries(
    SERVICES.map((s, i) => [
      `${s.name} loop p99/max, pool p99, gc ms`,
      describeTail(tailFigures(before[i]!, after[i]!)),
    ]),
  );

/** CPU_PROF_DIR=dir: each service process writes a CPU profile there (summarise: bench/profile-summary.ts). */
const profileArgs = (entry: string): string[] =>
  process.env.CPU_PROF_DIR
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`,
        `--cpu-prof-name=${entry.split('/')[1]}.cpuprofile`,
      ]
    : [];

const serviceStdout = (entry: string): 'ignore' | number =>
  process.env.SERVICE_STDOUT_DIR
    ? openSync(join(process.env.SERVICE_STDOUT_DIR, `${entry.split('/')[1]}.out`), 'w')
    : 'ignore';

const startProcess = (entry: string, env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, [...profileArgs(entry), ...SERVICE_NODE_ARGS, entry], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      INTERNAL_TOKEN_SECRET,
      METRICS_TOKEN,
      ...env,
    },
    // SERVICE_STDOUT_DIR=dir keeps each service's standard output there (what --trace-gc prints).
    stdio: ['ignore', serviceStdout(entry), 'inherit'],
  });

const cpuMs = (child: ChildProcess): number => cpuMsOf(child.pid);

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

const main = async () => {
  const db = await createTestDatabase();
  const gatewayDb = await createTestDatabase();
  const { amqpUrl, prefix, release } = await benchBroker();
  const common = {
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: prefix,
    CHAIN_NETWORK: 'mainnet',
    ...(process.env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX } : {}),
  };
  const children = [
    startProcess('services/payments/dist/main.js', {
      ...common,
      DATABASE_URL: db.url,
      PORT: String(PAYMENTS_PORT),
      CHECKOUT_URL: 'https://checkout.example.com/',
      FEE_QUOTE_SECRET: randomBytes(32).toString('hex'),
    }),
    startProcess('services/gateway/dist/main.js', {
      ...common,
      DATABASE_URL: gatewayDb.url,
      PORT: String(GATEWAY_PORT),
      JWT_SECRET: randomBytes(32).toString('hex'),
      API_KEY_PEPPER: randomBytes(32).toString('hex'),
      PAYMENTS_URL: `http://127.0.0.1:${PAYMENTS_PORT}`,
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000000',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    }),
  ];
  try {
    const gw = `http://127.0.0.1:${GATEWAY_PORT}`;
    await until('services ready', async () => {
      const [a, b] = await Promise.all([
        fetch(`${gw}/readyz`),
        fetch(`http://127.0.0.1:${PAYMENTS_PORT}/readyz`),
      ]);
      return a.ok && b.ok;
    });
    const reg = await fetch(`${gw}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench@shop.example',
        password: 'correct horse battery staple',
        merchantName: 'Bench',
        blockchain: 'BASE',
      }),
    });
    if (reg.status !== 201) throw new Error(`registration failed: ${reg.status}`);
    // Registration answers "check your e-mail"; the merchant's id comes with the session.
    const login = (await (
      await fetch(`${gw}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench@shop.example', password: 'correct horse battery staple' }),
      })
    ).json()) as { data: { access_token: string } };
    const me = (await (
      await fetch(`${gw}/auth/me`, { headers: { authorization: `Bearer ${login.data.access_token}` } })
    ).json()) as { data: { merchant: { id: string } } };
    const merchantId = me.data.merchant.id;
    const body = () =>
      JSON.stringify({
        merchantId,
        txHash: `0x${randomBytes(32).toString('hex')}`,
        amount: 25.5,
        expectedAmount: 25.5,
        token: 'USDC',
        chainId: 8453,
        fromAddress: `0x${randomBytes(20).toString('hex')}`,
        toAddress: `0x${randomBytes(20).toString('hex')}`,
        customerEmail: 'customer@example.com',
        reference: 'bench',
      });
    const targets = [
      { name: 'gateway', url: `${gw}/payments/create-public`, headers: () => ({}) },
      {
        name: 'payments direct',
        url: `http://127.0.0.1:${PAYMENTS_PORT}/payments/create-public`,
        // The internal token the gateway adds for a public route, valid for the whole run.
        headers: () => ({
          'x-internal-token': signInternalToken(INTERNAL_TOKEN_SECRET, { caller: 'public' }, 600),
        }),
      },
    ];
    // The payments service learns of the merchant from merchant.created.
    await until('merchant projected', async () => {
      const r = await fetch(targets[0]!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(),
      });
      return r.status === 201;
    });

    const rows: Array<Record<string, string | number>> = [];
    // Where each run's CPU went over the whole machine: the services, PostgreSQL's backends,
    // RabbitMQ, the load generator (this process) and the kernel's own threads.
    const named = new Map<number, string>([
      [children[0]!.pid!, 'payments'],
      [children[1]!.pid!, 'gateway'],
      [process.pid, 'load generator'],
    ]);
    const machine: string[] = [];
    for (const connections of CONNECTIONS) {
      for (const target of targets) {
        const machineBefore = cpuByGroup(named);
        const cpuBefore = children.map(cpuMs);
        const scrapedBefore = await scrapeAll();
        const result = await autocannon({
          url: target.url,
          method: 'POST',
          connections,
          duration: DURATION,
          headers: { 'content-type': 'application/json', ...target.headers() },
          requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
        });
        const [paymentsCpu, gatewayCpu] = children.map((c, i) => cpuMs(c) - cpuBefore[i]!);
        const tail = tailColumns(scrapedBefore, await scrapeAll());
        const served = Math.max(1, result.requests.total);
        machine.push(
          `${target.name}, ${connections} connections: ${cpuSpentPer(machineBefore, cpuByGroup(named), served, 8)}`,
        );
        rows.push({
          target: target.name,
          connections,
          'req/s': Math.round(result.requests.average),
          'p50 ms': result.latency.p50,
          'p99 ms': result.latency.p99,
          requests: result.requests.total,
          'non-2xx': result.non2xx,
          errors: result.errors + result.timeouts,
          // CPU time per request holds still when other work shares the machine; req/s does not.
          'payments CPU ms/req': Number((paymentsCpu! / served).toFixed(2)),
          'gateway CPU ms/req': Number((gatewayCpu! / served).toFixed(2)),
          ...tail,
        });
      }
    }
    // Latency below saturation: the gateway paced at fractions of the rate it reached with 32
    // connections (half by default; at saturation latency is only the queue: connections / rate,
    // Little's law). Requests are sent at even intervals, not in bursts per connection as
    // autocannon's own rate limit does. Lower fractions show how the tail follows the cores' load.
    const peak = rows.find((r) => r.target === 'gateway' && r.connections === CONNECTIONS[0]);
    let slowest: Array<Record<string, number | string>> = [];
    const medians: Array<Record<string, number | string>> = [];
    const pacedReferences: string[] = [];
    const windows: string[] = [];
    for (const fraction of peak ? PACED_FRACTIONS : []) {
      const rate = Math.max(1, Math.round(Number(peak!['req/s']) * fraction));
      const machineBefore = cpuByGroup(named);
      const cpuBefore = children.map(cpuMs);
      const scrapedBefore = await scrapeAll();
      const result = await pacedRun(targets[0]!.url, rate, DURATION, body, PG_WAITS ? db.url : undefined);
      const [paymentsCpu, gatewayCpu] = children.map((c, i) => cpuMs(c) - cpuBefore[i]!);
      const tail = tailColumns(scrapedBefore, await scrapeAll());
      if (slowest.length === 0) slowest = slowestBreakdown(result.timed);
      medians.push({ run: `paced at ${rate}/s`, ...medianBreakdown(result.timed) });
      windows.push(`paced at ${rate}/s: ${slowWindows(result.timed, 25)}`);
      if (PG_WAITS) {
        const lines = describeStalls(result.stalls);
        windows.push(
          `  PostgreSQL stalls: ${lines.length === 0 ? 'none' : ''}`,
          ...lines.map((l) => `    ${l}`),
        );
      }
      const served = Math.max(1, result.sent);
      machine.push(`gateway paced at ${rate}/s: ${cpuSpentPer(machineBefore, cpuByGroup(named), served, 8)}`);
      rows.push({
        target: `gateway paced at ${rate}/s`,
        connections: CONNECTIONS[0]!,
        'req/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        requests: result.requests.total,
        'non-2xx': result.non2xx,
        errors: result.errors + result.timeouts,
        'payments CPU ms/req': Number((paymentsCpu! / served).toFixed(2)),
        'gateway CPU ms/req': Number((gatewayCpu! / served).toFixed(2)),
        ...tail,
        'load generator loop p99/max': result.generatorLoop,
      });
      // The same inserts paced at the same rate: the tail PostgreSQL (and the disk under it) has alone.
      const referenceWaits = PG_WAITS ? sampleWaits(db.url) : undefined;
      const paced = await referenceRun(db.url, rate);
      const referenceStalls = (await referenceWaits?.stop()) ?? [];
      paced.latenciesMs.sort((a, b) => a - b);
      pacedReferences.push(
        `reference: pgbench paced at ${rate}/s (8 clients, latency from each transaction's scheduled start): p50 ${percentile(paced.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(paced.latenciesMs, 99).toFixed(1)} ms, max ${(paced.latenciesMs.at(-1) ?? NaN).toFixed(1)} ms over ${paced.latenciesMs.length} transactions`,
        ...(PG_WAITS
          ? [`  PostgreSQL stalls under pgbench: ${referenceStalls.length === 0 ? 'none' : ''}`]
          : []),
        ...describeStalls(referenceStalls).map((l) => `    ${l}`),
      );
    }
    const reference = await referenceRun(db.url);
    console.log(
      `\ncreate-public on PostgreSQL + RabbitMQ, gateway and payments as separate processes, ${DURATION} s per run, node ${process.version}, ${cpus().length} cores (load generator on the same machine)`,
    );
    console.table(rows);
    console.log(
      `loop p99/max: the event loop's delay during the run (p99 from nodejs_eventloop_delay_seconds, max from nodejs_eventloop_lag_max_seconds); pool p99: the wait for a database connection (db_pool_acquire_seconds); gc: GC pauses summed`,
    );
    if (slowest.length > 0) {
      console.log('The 10 slowest requests of the first paced run, from their Server-Timing (ms):');
      console.table(slowest);
      console.log("Each stage's median over the requests of each paced run (ms):");
      console.table(medians);
      console.log('When the slow requests were sent (windows of 100 ms):');
      for (const line of windows) console.log(`  ${line}`);
    }
    console.log(
      `reference: pgbench, the same payment + outbox inserts in one transaction, 32 clients: ${reference.tps.toFixed(0)} TPS, latency average ${reference.latencyAvgMs.toFixed(2)} ms (${reference.failed} failed)`,
    );
    for (const line of pacedReferences) console.log(line);
    console.log('CPU ms per request, every process of the machine:');
    for (const line of machine) console.log(`  ${line}`);
    for (const connections of CONNECTIONS) {
      const gwRow = rows.find((r) => r.target === 'gateway' && r.connections === connections)!;
      const direct = rows.find((r) => r.target === 'payments direct' && r.connections === connections)!;
      const added = Number(gwRow['p50 ms']) - Number(direct['p50 ms']);
      console.log(
        `${connections} connections: gateway ${gwRow['req/s']} req/s = ${((Number(gwRow['req/s']) / reference.tps) * 100).toFixed(1)}% of pgbench, direct ${direct['req/s']} req/s = ${((Number(direct['req/s']) / reference.tps) * 100).toFixed(1)}%; the gateway adds ${added.toFixed(1)} ms at p50 (${((added / Number(direct['p50 ms'])) * 100).toFixed(0)}% of the direct p50)`,
      );
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
    );
    await db.drop();
    await gatewayDb.drop();
    await release();
  }
};

/** Paced requests sent in the first second only open the client's connections; they are not counted. */
const PACED_WARMUP_S = 1;

/**
 * Requests at even intervals (`rate` per second) over a keep-alive pool, whatever the answers' pace.
 * The first second warms the pool and is not counted. The load generator's own event-loop delay is
 * measured beside it: a pause of this process delays every answer it reads and would count as the
 * services' latency.
 */
const pacedRun = async (
  url: string,
  rate: number,
  seconds: number,
  body: () => string,
  /** PostgreSQL to sample for stalls while the counted requests run (PG_WAITS=1) */
  waitsOf?: string,
) => {
  const agent = new Agent({ connections: 64, pipelining: 1 });
  const latencies: number[] = [];
  const timed: Array<{ ms: number; serverTiming: string | null; sentAtMs: number }> = [];
  let non2xx = 0;
  let errors = 0;
  const inFlight: Array<Promise<void>> = [];
  const started = performance.now();
  const warmup = Math.round(rate * PACED_WARMUP_S);
  const total = warmup + Math.round(rate * seconds);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  let measuredFrom = started;
  let waits: ReturnType<typeof sampleWaits> | undefined;
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (i === warmup) {
      measuredFrom = due;
      loop.enable();
      if (waitsOf) waits = sampleWaits(waitsOf);
    }
    const counted = i >= warmup;
    const sent = performance.now();
    inFlight.push(
      undiciRequest(url, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: body(),
      }).then(
        async (r) => {
          await r.body.dump();
          if (!counted) return;
          const ms = performance.now() - sent;
          latencies.push(ms);
          const serverTiming = r.headers['server-timing'];
          timed.push({
            ms,
            serverTiming: [serverTiming ?? []].flat().join(', ') || null,
            sentAtMs: sent - measuredFrom,
          });
          if (r.statusCode < 200 || r.statusCode > 299) non2xx++;
        },
        () => {
          if (counted) errors++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  loop.disable();
  const stalls = (await waits?.stop()) ?? [];
  const elapsed = (performance.now() - measuredFrom) / 1000;
  await agent.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: { total: latencies.length, average: latencies.length / elapsed },
    latency: {
      p50: Number(percentile(latencies, 50).toFixed(1)),
      p99: Number(percentile(latencies, 99).toFixed(1)),
    },
    non2xx,
    errors,
    timeouts: 0,
    timed,
    /** every request sent, the warm-up's included: the CPU the processes spent was for all of them */
    sent: total,
    stalls,
    /** the load generator's event-loop delay, p99 / max, ms */
    generatorLoop: `${(loop.percentile(99) / 1e6).toFixed(1)} / ${(loop.max / 1e6).toFixed(1)}`,
  };
};

/**
 * pgbench running what the payments service runs for one create-public: the payment insert (as
 * knex sends it) and the outbox insert of payment.created, in one transaction, for a merchant of the
 * run and with an envelope the run really wrote.
 */
const referenceRun = async (databaseUrl: string, rate?: number) => {
  // The service's tables are in its schema, on its search path as for the service's connections.
  const url = `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c search_path=payments,public')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let merchantId: string;
  let envelope: string;
  try {
    merchantId = (await client.query('select merchant_id from merchants limit 1')).rows[0].merchant_id;
    const row = (await client.query("select envelope from outbox where type = 'payment.created' limit 1"))
      .rows[0];
    envelope = JSON.stringify(row.envelope);
  } finally {
    await client.end();
  }
  const quote = (v: string) => `'${v.replaceAll("'", "''")}'`;
  const script = [
    'BEGIN;',
    `insert into "payments" ("amount", "bridge_provider", "burn_tx_hash", "currency", "customer_email", "description", "destination_chain", "destination_chain_id", "expected_amount", "fee_quote", "from_address", "id", "is_cross_chain", "merchant_id", "metadata", "mint_tx_hash", "reference", "source_chain", "source_chain_id", "status", "to_address", "tx_hash") values ('25.5', NULL, NULL, 'USDC', 'customer@example.com', NULL, NULL, NULL, '25.5', NULL, '0x' || substr(md5(random()::text), 1, 40), gen_random_uuid(), false, ${quote(merchantId)}, '{}', NULL, 'bench', 'BASE', 8453, 'pending', '0x' || substr(md5(random()::text), 1, 40), '0x' || md5(random()::text) || md5(random()::text)) on conflict do nothing returning *;`,
    // pgbench reads ":name" as a variable: the envelope's colons go in as chr(58).
    `insert into "outbox" ("envelope", "id", "type") values (replace(${quote(envelope.replaceAll(':', '\u0001'))}, chr(1), chr(58))::jsonb, gen_random_uuid(), 'payment.created');`,
    'COMMIT;',
    '',
  ].join('\n');
  return pgbench({ url, script, clients: rate ? 8 : 32, seconds: DURATION, rate });
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
