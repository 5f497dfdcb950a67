/**
 * A soak run through the gateway, every service its own process on PostgreSQL and RabbitMQ, with the
 * devnet: real same-chain payments (transfers on anvil, reported with create-public, verified), a
 * refund of every REFUND_EVERY-th completed payment (sent on-chain), signed webhooks for all of it
 * to a local receiver, and authenticated reads at half the peak measured at the start of the run.
 * Every SAMPLE_SECONDS it records each service's resident memory, the outbox rows waiting in each
 * service, the messages waiting in each queue and the errors so far; at the end it lets the work
 * drain and prints the samples and what must hold: no error, flat memory, no backlog left.
 *
 *   npm run build && node --import tsx bench/soak.ts     (SOAK_SECONDS=600 PAY_RATE=5 REFUND_EVERY=4)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import amqp from 'amqplib';
import autocannon from 'autocannon';
import { Contract, JsonRpcProvider, NonceManager, Wallet, parseUnits } from 'ethers';
import pg from 'pg';
import { fiatTokenAbi } from '@stablepay/devnet';
import { createTestDatabase } from '@stablepay/platform/testing';
import { benchBroker } from './backends.js';
import { startProcessStack } from '@stablepay/stack';
import { rssMbOf } from './stats.js';

const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SAMPLE_SECONDS = Number(process.env.SAMPLE_SECONDS ?? 30);
const PAY_RATE = Number(process.env.PAY_RATE ?? 5);
const REFUND_EVERY = Number(process.env.REFUND_EVERY ?? 4);
const SERVICES = ['gateway', 'payments', 'chain-watcher', 'refunds', 'invoicing', 'notifier'];
const SCHEMAS: Record<string, string> = {
  gateway: 'gateway',
  payments: 'payments',
  'chain-watcher': 'chain_watcher',
  refunds: 'refunds',
  invoicing: 'invoicing',
  notifier: 'notifier',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const main = async () => {
  const db = await createTestDatabase();
  const { amqpUrl, prefix, release } = await benchBroker();
  const varDir = mkdtempSync(join(tmpdir(), 'sp-soak-'));
  const stack = await startProcessStack({
    varDir,
    databaseUrl: db.url,
    amqpUrl,
    amqpPrefix: prefix,
    env: {
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000000',
      RATE_LIMIT_AUTH_PER_MINUTE: '100000000',
      RATE_LIMIT_FAILED_KEYS_PER_MINUTE: '100000000',
      SIGNIN_LOCKOUT_FAILURES: '100000000',
      RATE_LIMIT_KEY_PER_MINUTE: '100000000',
      SCRYPT_COST: '10',
    },
  });
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  sql.on('error', (err) => console.error(`soak's database connection: ${err.message}`));
  const conn = await amqp.connect(amqpUrl);
  conn.on('error', (err) => console.error(`soak's broker connection: ${err.message}`));
  const ch = await conn.createChannel();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      // Deduplicated by the event id header, as a receiver should.
      const id = String(req.headers['x-service-event-id']);
      const type = String(req.headers['x-service-event']);
      if (body.length > 0) {
        const seen = webhooks.get(id);
        webhooks.set(id, { type, times: (seen?.times ?? 0) + 1 });
        const paymentId = (JSON.parse(body) as { data?: { payment_id?: string } }).data?.payment_id;
        if (type === 'payment.completed' && paymentId) completedHooks.add(paymentId);
      }
      res.end('ok');
    });
  });
  const webhooks = new Map<string, { type: string; times: number }>();
  const completedHooks = new Set<string>();
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const counts = { requests: 0, errors: 0, paymentsReported: 0, refundsRequested: 0, refundRetries: 0 };
  const errorSamples: string[] = [];
  // A socket error in the load generator's own clients is counted as an error of the run, with its
  // stack, instead of ending the run.
  process.on('uncaughtException', (err) => {
    counts.errors++;
    if (errorSamples.length < 10) errorSamples.push(`load generator: ${err.stack ?? String(err)}`);
  });
  const gw = stack.gatewayUrl;
  const call = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
    expected: number[] = [],
  ) => {
    counts.requests++;
    try {
      const res = await fetch(`${gw}${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as any;
      if (res.status >= 400 && !expected.includes(res.status)) {
        counts.errors++;
        if (errorSamples.length < 10)
          errorSamples.push(
            `${method} ${path} ${res.status} ${res.headers.get('ratelimit-policy') ?? ''} ${JSON.stringify(json)}`,
          );
      }
      return { status: res.status, body: json };
    } catch (err) {
      counts.errors++;
      if (errorSamples.length < 10) errorSamples.push(`${method} ${path} ${String(err)}`);
      return { status: 0, body: undefined };
    }
  };
  try {
    // The merchant, its API key, its wallet and a webhook endpoint for everything it is told.
    const email = 'soak@shop.example';
    const password = 'correct horse battery staple';
    await call('POST', '/auth/register', {}, { email, password, merchantName: 'Soak', blockchain: 'BASE' });
    const login = await call('POST', '/auth/login', {}, { email, password });
    const bearer = { authorization: `Bearer ${login.body.data.access_token}` };
    // Registration answers "check your e-mail"; the merchant's id comes with the session.
    const merchantId = (await call('GET', '/auth/me', bearer)).body.data.merchant.id as string;
    const key = { 'x-api-key': (await call('POST', '/api-keys', bearer, { name: 'soak' })).body.data.key };
    let wallet: { address: string } | undefined;
    while (!wallet) {
      const r = await fetch(`${gw}/merchants/${merchantId}/wallet`);
      if (r.status === 200) wallet = ((await r.json()) as any).data.wallet;
      else await sleep(100);
    }
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await call('POST', '/merchant-webhooks/api/create', key, {
      url: receiverUrl,
      events: ['payment.completed', 'payment.failed', 'refund.completed', 'refund.failed'],
    });
    const chain = stack.devnet.chains.find((c) => c.name === 'BASE')!;
    const provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const payers = stack.devnet.customers.map((c) => ({
      address: c.address,
      token: new Contract(
        chain.tokens.USDC,
        fiatTokenAbi(),
        new NonceManager(new Wallet(c.privateKey, provider)),
      ),
    }));

    // The peak of authenticated reads, then the soak at half of it.
    const peak = await autocannon({
      url: `${gw}/payments/api/list?limit=10`,
      connections: 32,
      duration: 10,
      headers: key,
    });
    const readRate = Math.max(1, Math.round(peak.requests.average / 2));
    console.log(
      `peak of GET /payments/api/list: ${Math.round(peak.requests.average)} req/s; soaking at ${readRate} req/s of reads and ${PAY_RATE} payments/s`,
    );

    const payments: Array<{ id: string; refunded: boolean }> = [];
    let stopping = false;
    const loops: Array<Promise<void>> = [];
    // Reads: list and detail, paced.
    loops.push(
      (async () => {
        const every = 1000 / readRate;
        let next = performance.now();
        while (!stopping) {
          next += every;
          const known = payments[Math.floor(Math.random() * payments.length)];
          void (known && Math.random() < 0.5
            ? call('GET', `/payments/api/${known.id}`, key)
            : call('GET', '/payments/api/list?limit=10', key));
          const wait = next - performance.now();
          if (wait > 0) await sleep(wait);
        }
      })(),
    );
    // Real payments: a transfer from a customer, reported once mined.
    loops.push(
      (async () => {
        let n = 0;
        const inFlight = new Set<Promise<unknown>>();
        while (!stopping) {
          const payer = payers[n++ % payers.length]!;
          const p = (async () => {
            const tx = await payer.token.getFunction('transfer')(wallet!.address, parseUnits('2', 6));
            await tx.wait();
            const r = await call(
              'POST',
              '/payments/create-public',
              {},
              {
                merchantId,
                txHash: tx.hash,
                amount: 2,
                expectedAmount: 2,
                token: 'USDC',
                chainId: chain.chainId,
                fromAddress: payer.address,
                toAddress: wallet!.address,
                customerEmail: 'payer@example.com',
              },
            );
            if (r.status === 201) {
              counts.paymentsReported++;
              payments.push({ id: r.body.data.paymentId, refunded: false });
            }
          })();
          const tracked = p.catch((err: unknown) => {
            counts.errors++;
            if (errorSamples.length < 10) errorSamples.push(`payment transfer: ${String(err)}`);
          });
          inFlight.add(tracked);
          void tracked.finally(() => inFlight.delete(tracked));
          await sleep(1000 / PAY_RATE);
        }
        await Promise.all(inFlight);
      })(),
    );
    // Refunds of every REFUND_EVERY-th completed payment.
    loops.push(
      (async () => {
        while (!stopping) {
          await sleep(2000);
          for (const [i, p] of payments.entries()) {
            if (p.refunded || i % REFUND_EVERY !== 0) continue;
            // As a merchant would: once the payment.completed webhook arrived.
            if (!completedHooks.has(p.id)) continue;
            const r = await call(
              'POST',
              '/refunds/api/create',
              key,
              { paymentId: p.id, reason: 'requested_by_customer' },
              // The refunds service learns of the payment from the same event, maybe a moment later.
              [404],
            );
            if (r.status === 201) {
              p.refunded = true;
              counts.refundsRequested++;
            } else if (r.status === 404) counts.refundRetries++;
          }
        }
      })(),
    );

    const backlog = async () => {
      const outbox: Record<string, number> = {};
      for (const s of SERVICES) {
        // A service that publishes nothing has no outbox.
        const has = await sql.query('select to_regclass($1) is not null as has', [`${SCHEMAS[s]}.outbox`]);
        if (!has.rows[0].has) continue;
        const r = await sql.query(
          `select count(*)::int as n from ${SCHEMAS[s]}.outbox where published_at is null`,
        );
        outbox[s] = r.rows[0].n;
      }
      const queues: Record<string, number> = {};
      for (const s of SERVICES) {
        try {
          queues[s] = (await ch.checkQueue(`${prefix}${s}`)).messageCount;
        } catch {
          queues[s] = 0;
        }
      }
      return { outbox, queues };
    };
    const samples: Array<Record<string, string | number>> = [];
    const sample = async (at: number) => {
      const { outbox, queues } = await backlog();
      const row: Record<string, string | number> = { 't s': at };
      for (const s of SERVICES) row[`${s} MB`] = rssMbOf(stack.byName(s).child.pid);
      row['outbox waiting'] = Object.values(outbox).reduce((a, b) => a + b, 0);
      row['queued'] = Object.values(queues).reduce((a, b) => a + b, 0);
      row.requests = counts.requests;
      row.errors = counts.errors;
      row.payments = counts.paymentsReported;
      row.refunds = counts.refundsRequested;
      row.webhooks = webhooks.size;
      samples.push(row);
      console.log(JSON.stringify(row));
    };
    const started = performance.now();
    await sample(0);
    while (performance.now() - started < SOAK_SECONDS * 1000) {
      await sleep(SAMPLE_SECONDS * 1000);
      await sample(Math.round((performance.now() - started) / 1000));
    }
    stopping = true;
    await Promise.all(loops);
    // Drain: everything reported is decided, refunded and announced.
    const drainStarted = performance.now();
    for (;;) {
      const { outbox, queues } = await backlog();
      const waiting =
        Object.values(outbox).reduce((a, b) => a + b, 0) + Object.values(queues).reduce((a, b) => a + b, 0);
      const pending =
        (
          await sql.query(
            `select count(*)::int as n from payments.payments where status not in ('completed', 'failed')`,
          )
        ).rows[0].n +
        (
          await sql.query(
            `select count(*)::int as n from refunds.refunds where status in ('pending', 'processing')`,
          )
        ).rows[0].n;
      if ((waiting === 0 && pending === 0) || performance.now() - drainStarted > 180_000) break;
      await sleep(1000);
    }
    await sample(Math.round((performance.now() - started) / 1000));
    provider.destroy();

    const statuses = (
      await sql.query(
        `select status, count(*)::int as n from payments.payments group by status order by status`,
      )
    ).rows;
    const refunds = (
      await sql.query(
        `select status, count(*)::int as n from refunds.refunds group by status order by status`,
      )
    ).rows;
    const completed = statuses.find((s) => s.status === 'completed')?.n ?? 0;
    const paymentHooks = [...webhooks.values()].filter((w) => w.type === 'payment.completed').length;
    console.log(
      `\nsoak: ${SOAK_SECONDS} s, node ${process.version}, ${cpus().length} cores (load generator, devnet, PostgreSQL and RabbitMQ on the same machine)`,
    );
    console.table(samples);
    const first = samples[1] ?? samples[0]!;
    const last = samples[samples.length - 1]!;
    console.table([
      { measure: 'requests through the gateway', value: counts.requests },
      { measure: 'errors (4xx/5xx/network)', value: counts.errors },
      { measure: 'payments by status', value: statuses.map((s) => `${s.status} ${s.n}`).join(', ') },
      { measure: 'refunds by status', value: refunds.map((s) => `${s.status} ${s.n}`).join(', ') },
      {
        measure: 'refund requests retried (404 before the refunds service knew the payment)',
        value: counts.refundRetries,
      },
      {
        measure: 'payment.completed webhooks received (distinct events)',
        value: `${paymentHooks} of ${completed}`,
      },
      {
        measure: 'webhook events received more than once',
        value: [...webhooks.values()].filter((w) => w.times > 1).length,
      },
      {
        measure: `RSS MB at ${first['t s']} s → end, per service`,
        value: SERVICES.map((s) => `${s} ${first[`${s} MB`]}→${last[`${s} MB`]}`).join(', '),
      },
      {
        measure: 'max outbox rows waiting',
        value: Math.max(...samples.map((s) => Number(s['outbox waiting']))),
      },
      { measure: 'max messages queued', value: Math.max(...samples.map((s) => Number(s.queued))) },
      {
        measure: 'left at the end (outbox + queues)',
        value: Number(last['outbox waiting']) + Number(last.queued),
      },
    ]);
    for (const e of errorSamples) console.log(`error: ${e}`);
  } finally {
    await conn.close().catch(() => undefined);
    await sql.end();
    receiver.close();
    await stack.stop();
    await db.drop();
    await release();
    rmSync(varDir, { recursive: true, force: true });
  }
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
