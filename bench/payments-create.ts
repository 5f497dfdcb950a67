/**
 * POST /payments/create-public throughput and latency, through the gateway and directly against the
 * payments service, on PostgreSQL and RabbitMQ, at 32 and 128 connections.
 *
 *   npm run bench:payments            (DURATION=10 seconds per run by default)
 *
 * The stack runs in a child process (so the load generator does not share its event loop) on a fresh
 * database and queue prefix; every request carries a new txHash, so each one inserts a payment and an
 * outbox row that is published to RabbitMQ.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { signInternalToken } from '@stablepay/platform';
import { createTestDatabase, testAmqpUrl, testQueuePrefix } from '@stablepay/platform/testing';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = [32, 128];
const GATEWAY_PORT = 18080;
const PAYMENTS_PORT = 18101;
const CHAIN_WATCHER_PORT = 18102;
const REFUNDS_PORT = 18103;
const DEVNET_PORT = 18645;

const waitForFile = async (file: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const main = async () => {
  const db = await createTestDatabase();
  const amqpUrl = await testAmqpUrl();
  const varDir = mkdtempSync(join(tmpdir(), 'sp-bench-'));
  const child = spawn(process.execPath, ['packages/stack/dist/main.js'], {
    env: {
      ...process.env,
      VAR_DIR: varDir,
      DATABASE_URL: db.url,
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: testQueuePrefix(),
      GATEWAY_PORT: String(GATEWAY_PORT),
      PAYMENTS_PORT: String(PAYMENTS_PORT),
      CHAIN_WATCHER_PORT: String(CHAIN_WATCHER_PORT),
      REFUNDS_PORT: String(REFUNDS_PORT),
      DEVNET_PORT: String(DEVNET_PORT),
      LOG_LEVEL: 'error',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForFile(join(varDir, 'devnet.json'));
    const devnet = JSON.parse(readFileSync(join(varDir, 'devnet.json'), 'utf8')) as {
      merchant: { id: string };
    };
    const secrets = JSON.parse(readFileSync(join(varDir, 'secrets.json'), 'utf8')) as {
      INTERNAL_TOKEN_SECRET: string;
    };
    // create-public requires the merchant's own wallet once the chain-watcher has assigned it.
    const wallet = await (async () => {
      for (let i = 0; i < 120; i++) {
        const r = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/merchants/${devnet.merchant.id}/wallet`);
        if (r.status === 200)
          return ((await r.json()) as { data: { wallet: { address: string; chainId: number } } }).data.wallet;
        await new Promise((res) => setTimeout(res, 500));
      }
      throw new Error('the demo merchant got no wallet');
    })();
    const body = () =>
      JSON.stringify({
        merchantId: devnet.merchant.id,
        txHash: `0x${randomBytes(32).toString('hex')}`,
        amount: 25.5,
        expectedAmount: 25.5,
        token: 'USDC',
        chainId: wallet.chainId,
        fromAddress: `0x${randomBytes(20).toString('hex')}`,
        toAddress: wallet.address,
        customerEmail: 'customer@example.com',
        reference: 'bench',
      });
    // The internal token a gateway would add for a public route; refreshed per run (it lives 60 s).
    const targets = [
      {
        name: 'gateway',
        url: `http://127.0.0.1:${GATEWAY_PORT}/payments/create-public`,
        headers: () => ({}),
      },
      {
        name: 'payments direct',
        url: `http://127.0.0.1:${PAYMENTS_PORT}/payments/create-public`,
        headers: () => ({
          'x-internal-token': signInternalToken(secrets.INTERNAL_TOKEN_SECRET, { caller: 'public' }, 600),
        }),
      },
    ];
    const warm = await fetch(targets[0]!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(),
    });
    if (warm.status !== 201) throw new Error(`warm-up request failed: ${warm.status} ${await warm.text()}`);

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
      `\ncreate-public on PostgreSQL + RabbitMQ (whole stack in one child process, chain-watcher verifying every payment), ${DURATION} s per run, node ${process.version}, ${cpus().length} cores`,
    );
    console.table(rows);
    for (const connections of CONNECTIONS) {
      const gw = rows.find((r) => r.target === 'gateway' && r.connections === connections)!;
      const direct = rows.find((r) => r.target === 'payments direct' && r.connections === connections)!;
      const share = (Number(gw['p50 ms']) - Number(direct['p50 ms'])) / Number(gw['p50 ms']);
      console.log(
        `${connections} connections: the gateway adds ${(Number(gw['p50 ms']) - Number(direct['p50 ms'])).toFixed(1)} ms at p50 (${(share * 100).toFixed(0)}% of the end-to-end p50)`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(varDir, { recursive: true, force: true });
    await db.drop();
  }
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
