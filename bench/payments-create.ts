/**
 * POST /payments/create-public throughput and latency, through the gateway and directly against the
 * payments service, on PostgreSQL and RabbitMQ, at 32 and 128 connections.
 *
 *   npm run bench:payments            (DURATION=10 seconds per run by default)
 *
 * The gateway and the payments service run as separate processes, as deployed, on a fresh database
 * and queue prefix; every request carries a new txHash, so each one inserts a payment and an outbox
 * row that the relay publishes to RabbitMQ with confirms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { signInternalToken } from '@stablepay/platform';
import { createTestDatabase, testAmqpUrl, testQueuePrefix } from '@stablepay/platform/testing';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = [32, 128];
const GATEWAY_PORT = 18080;
const PAYMENTS_PORT = 18101;
const INTERNAL_TOKEN_SECRET = randomBytes(32).toString('hex');

const startProcess = (entry: string, env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      INTERNAL_TOKEN_SECRET,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

const main = async () => {
  const db = await createTestDatabase();
  const amqpUrl = await testAmqpUrl();
  const prefix = testQueuePrefix();
  const common = { DATABASE_URL: db.url, AMQP_URL: amqpUrl, AMQP_PREFIX: prefix, CHAIN_NETWORK: 'mainnet' };
  const children = [
    startProcess('services/payments/dist/main.js', {
      ...common,
      PORT: String(PAYMENTS_PORT),
      CHECKOUT_URL: 'https://checkout.example.com/',
    }),
    startProcess('services/gateway/dist/main.js', {
      ...common,
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
    const merchantId = ((await reg.json()) as { data: { merchant: { id: string } } }).data.merchant.id;
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
    for (const connections of CONNECTIONS) {
      for (const target of targets) {
        const result = await autocannon({
          url: target.url,
          method: 'POST',
          connections,
          duration: DURATION,
          headers: { 'content-type': 'application/json', ...target.headers() },
          requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
        });
        rows.push({
          target: target.name,
          connections,
          'req/s': Math.round(result.requests.average),
          'p50 ms': result.latency.p50,
          'p99 ms': result.latency.p99,
          requests: result.requests.total,
          'non-2xx': result.non2xx,
          errors: result.errors + result.timeouts,
        });
      }
    }
    console.log(
      `\ncreate-public on PostgreSQL + RabbitMQ, gateway and payments as separate processes, ${DURATION} s per run, node ${process.version}, ${cpus().length} cores (load generator on the same machine)`,
    );
    console.table(rows);
    for (const connections of CONNECTIONS) {
      const gwRow = rows.find((r) => r.target === 'gateway' && r.connections === connections)!;
      const direct = rows.find((r) => r.target === 'payments direct' && r.connections === connections)!;
      const added = Number(gwRow['p50 ms']) - Number(direct['p50 ms']);
      console.log(
        `${connections} connections: the gateway adds ${added.toFixed(1)} ms at p50 (${((added / Number(gwRow['p50 ms'])) * 100).toFixed(0)}% of the end-to-end p50)`,
      );
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
    );
    await db.drop();
  }
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
