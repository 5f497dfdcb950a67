/**
 * Same-chain verification on the devnet, through the whole stack (PostgreSQL + RabbitMQ, each service
 * its own process as deployed):
 *  1. latency from a transfer's inclusion in a block to payment.completed on the bus, at 1
 *     confirmation (p50, p99 over SAMPLES sequential payments);
 *  2. verified payments per second with PENDING (default 1,000) payments outstanding at once: the
 *     transfers are mined and reported while the chain-watcher is held (SIGSTOP), and the clock runs
 *     from its resumption to the last payment.completed;
 *  beside them, in the same run, the reference: the same receipts fetched by a plain JSON-RPC loop
 *  (eth_getTransactionReceipt, one request at a time and 16 at a time) against the same anvil.
 *
 *   npm run bench:verification        (SAMPLES=100 PENDING=1000 VERIFY_POLL_MS=250 by default)
 */
import { cpus } from 'node:os';
import amqp from 'amqplib';
import pg from 'pg';
import { Contract, JsonRpcProvider, NonceManager, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { join } from 'node:path';
import { confirmEmailFromMail, startProcessStack } from '@stablepay/stack';
import { cpuByGroup, cpuMsOf, cpuSpentPer, percentile } from './stats.js';
import { benchBackends } from './backends.js';

const SAMPLES = Number(process.env.SAMPLES ?? 100);
const PENDING = Number(process.env.PENDING ?? 1000);
const POLL = process.env.VERIFY_POLL_MS ?? '250';

const main = async () => {
  const { db, amqpUrl, prefix, varDir, release } = await benchBackends();
  const stack = await startProcessStack({
    varDir,
    databaseUrl: db.url,
    amqpUrl,
    amqpPrefix: prefix,
    env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '100000000', SCRYPT_COST: '10', VERIFY_POLL_MS: POLL },
    nodeArgsOf: process.env.CPU_PROF_DIR
      ? Object.fromEntries(
          ['chain-watcher', 'payments', 'gateway', 'notifier', 'refunds', 'invoicing'].map((n) => [
            n,
            ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`, `--cpu-prof-name=${n}.cpuprofile`],
          ]),
        )
      : undefined,
  });
  const conn = await amqp.connect(amqpUrl);
  try {
    // payment.completed as it reaches the bus, timed on arrival.
    const completedAt = new Map<string, number>();
    const waiters = new Map<string, () => void>();
    const ch = await conn.createChannel();
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, `${prefix}stablepay.events`, 'payment.completed');
    await ch.bindQueue(queue, `${prefix}stablepay.events`, 'chain.payment.verified');
    const verifiedAt = new Map<string, number>();
    await ch.consume(
      queue,
      (m) => {
        if (!m) return;
        const event = JSON.parse(m.content.toString());
        if (m.fields.routingKey === 'chain.payment.verified') {
          verifiedAt.set(event.data.paymentId as string, performance.now());
          return;
        }
        const id = event.data.payment_id as string;
        completedAt.set(id, performance.now());
        waiters.get(id)?.();
      },
      { noAck: true },
    );

    const gw = stack.gatewayUrl;
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const r = await fetch(`${gw}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    const email = 'bench@shop.example';
    const password = 'correct horse battery staple';
    await post('/auth/register', { email, password, merchantName: 'Bench', blockchain: 'BASE' });
    // Registration answers "check your e-mail"; the merchant's id comes with the session.
    const login = await post('/auth/login', { email, password });
    const me = await fetch(`${gw}/auth/me`, {
      headers: { authorization: `Bearer ${login.body.data.access_token}` },
    });
    const merchantId = ((await me.json()) as any).data.merchant.id as string;
    // A merchant that confirmed its address, as every live one has: each payment then sends both of
    // its e-mails, the customer's receipt and the merchant's notice.
    await confirmEmailFromMail(gw, join(varDir, 'mail'), email);
    await untilNotifierKnowsConfirmed(db.url, merchantId);
    let wallet: { address: string; chainId: number } | undefined;
    while (!wallet) {
      const r = await fetch(`${gw}/merchants/${merchantId}/wallet`);
      if (r.status === 200) wallet = ((await r.json()) as any).data.wallet;
      else await new Promise((res) => setTimeout(res, 100));
    }
    const chain = stack.devnet.chains.find((c) => c.name === 'BASE')!;
    const provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const payers = stack.devnet.customers.map((c) => {
      const signer = new NonceManager(new Wallet(c.privateKey, provider));
      return { address: c.address, token: new Contract(chain.tokens.USDC, fiatTokenAbi(), signer) };
    });
    const report = (txHash: string, from: string) =>
      post('/payments/create-public', {
        merchantId,
        txHash,
        amount: 1,
        expectedAmount: 1,
        token: 'USDC',
        chainId: chain.chainId,
        fromAddress: from,
        toAddress: wallet!.address,
        customerEmail: 'payer@example.com',
      });

    // 1. Latency, one payment at a time: inclusion (receipt) → payment.completed on the bus.
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const payer = payers[i % payers.length]!;
      const tx = await payer.token.getFunction('transfer')(wallet.address, parseUnits('1', 6));
      await tx.wait();
      const included = performance.now();
      const created = await report(tx.hash, payer.address);
      const id = created.body.data.paymentId as string;
      if (!completedAt.has(id)) await new Promise<void>((res) => waiters.set(id, res));
      latencies.push(completedAt.get(id)! - included);
    }
    latencies.sort((a, b) => a - b);

    // 2. Throughput: PENDING transfers mined first, then all reported at once.
    const txs: Array<{ hash: string; from: string }> = [];
    await Promise.all(
      payers.map(async (payer, p) => {
        const sent = [];
        for (let i = p; i < PENDING; i += payers.length)
          sent.push(await payer.token.getFunction('transfer')(wallet!.address, parseUnits('1', 6)));
        for (const tx of sent) {
          await tx.wait();
          txs.push({ hash: tx.hash, from: payer.address });
        }
      }),
    );
    // The chain-watcher is held (SIGSTOP) while the payments are reported, so that all of them are
    // pending at once when it resumes: the clock runs from its resumption to the last completion.
    const ids: string[] = [];
    const cpuOf = (name: string) => cpuMsOf(stack.byName(name).child.pid);
    const watcherPid = stack.byName('chain-watcher').child.pid!;
    process.kill(watcherPid, 'SIGSTOP');
    const reportStarted = performance.now();
    try {
      for (let i = 0; i < txs.length; i += 32) {
        const batch = await Promise.all(txs.slice(i, i + 32).map((t) => report(t.hash, t.from)));
        for (const r of batch) ids.push(r.body.data.paymentId);
      }
    } finally {
      process.kill(watcherPid, 'SIGCONT');
    }
    const reported = performance.now();
    const cpuBefore = Object.fromEntries(['chain-watcher', 'payments', 'gateway'].map((n) => [n, cpuOf(n)]));
    const named = new Map(stack.services.map((s) => [s.child.pid!, s.name]));
    named.set(process.pid, 'bench');
    const stats = new pg.Client({ connectionString: db.url });
    await stats.connect();
    await nameBackends(stats, named);
    const writesBefore = await tableWrites(stats);
    const machineBefore = cpuByGroup(named);
    const started = performance.now();
    await Promise.all(
      ids.map((id) => (completedAt.has(id) ? undefined : new Promise<void>((res) => waiters.set(id, res)))),
    );
    const finished = Math.max(...ids.map((id) => completedAt.get(id)!));
    // The consumers of payment.completed (e-mails, webhooks, the refunds projection) are not on the
    // clock's path but their work is the payments': the CPU is read once they have handled them all.
    await consumersCaughtUp(stats, ids);
    await nameBackends(stats, named);
    const machine = cpuSpentPer(machineBefore, cpuByGroup(named), ids.length, 14);
    const cpuPerPayment = (n: string) => ((cpuOf(n) - cpuBefore[n]!) / ids.length).toFixed(2);
    const verified = Math.max(...ids.map((id) => verifiedAt.get(id) ?? 0));
    provider.destroy();
    // Where the time went, from the chain-watcher's own rows: when the pending payments were
    // tracked (payment.created consumed) and when they were decided.
    const client = stats;
    const { rows: phases } = (await client.query(
      `select extract(epoch from max(created_at) - min(created_at)) as tracking_s,
              extract(epoch from max(decided_at) - min(created_at)) as tracked_to_decided_s,
              extract(epoch from max(decided_at) - min(decided_at)) as deciding_s
         from chain_watcher.verifications where payment_id = any($1::uuid[])`,
      [ids],
    )) as { rows: Array<{ tracking_s: string; tracked_to_decided_s: string; deciding_s: string }> };
    // A backend reports its counters when it goes idle, at most once a second.
    await new Promise((r) => setTimeout(r, 1_500));
    const writes = writesPer(writesBefore, await tableWrites(client), ids.length);
    await client.end();
    const sequential = await receiptLoop(
      chain.rpcUrl,
      txs.map((t) => t.hash),
      1,
    );
    const parallel = await receiptLoop(
      chain.rpcUrl,
      txs.map((t) => t.hash),
      16,
    );
    const perSecond = ids.length / ((finished - started) / 1000);

    console.log(
      `\nsame-chain verification on the devnet (anvil, 1 confirmation), PostgreSQL + RabbitMQ, VERIFY_POLL_MS=${POLL}, node ${process.version}, ${cpus().length} cores`,
    );
    console.table([
      {
        measure: `inclusion → payment.completed, p50 (${SAMPLES} payments)`,
        value: `${percentile(latencies, 50).toFixed(0)} ms`,
      },
      { measure: 'inclusion → payment.completed, p99', value: `${percentile(latencies, 99).toFixed(0)} ms` },
      {
        measure: 'inclusion → payment.completed, max',
        value: `${latencies[latencies.length - 1]!.toFixed(0)} ms`,
      },
      {
        measure: `${PENDING} payments reported through the gateway (chain-watcher held) in`,
        value: `${((reported - reportStarted) / 1000).toFixed(2)} s`,
      },
      {
        measure: `${PENDING} pending: all verified (chain-watcher verdicts) after its resumption`,
        value: `${((verified - started) / 1000).toFixed(2)} s`,
      },
      {
        measure: `${PENDING} pending: all completed (payment.completed) after`,
        value: `${((finished - started) / 1000).toFixed(2)} s`,
      },
      { measure: 'verified payments per second', value: perSecond.toFixed(0) },
      {
        measure: `CPU ms per payment (pending → completed): chain-watcher, payments, gateway`,
        value: `${cpuPerPayment('chain-watcher')}, ${cpuPerPayment('payments')}, ${cpuPerPayment('gateway')}`,
      },
      {
        measure: `chain-watcher: first to last tracked, first tracked to last decided, first to last decided`,
        value: `${Number(phases[0]?.tracking_s).toFixed(2)} s, ${Number(phases[0]?.tracked_to_decided_s).toFixed(2)} s, ${Number(phases[0]?.deciding_s).toFixed(2)} s`,
      },
      { measure: 'CPU ms per payment, every process of the machine (pending → completed)', value: machine },
      { measure: 'rows written per payment (inserted/updated/deleted), by table', value: writes.rows },
      { measure: 'transactions committed per payment, the whole database', value: writes.commits },
      {
        measure: 'reference: raw eth_getTransactionReceipt loop, 1 at a time',
        value: `${sequential.toFixed(0)} receipts/s`,
      },
      {
        measure: 'reference: raw eth_getTransactionReceipt loop, 16 at a time',
        value: `${parallel.toFixed(0)} receipts/s`,
      },
      {
        measure: 'verified payments per second / 16-at-a-time receipts per second',
        value: (perSecond / parallel).toFixed(3),
      },
    ]);
  } finally {
    await conn.close();
    await stack.stop();
    await release();
  }
};

/**
 * Names the bench database's PostgreSQL backends after the service they serve (each service's pool
 * sets application_name to its schema), so that their CPU counts under `PostgreSQL <service>` and not
 * with other databases' backends on the same server.
 */
const nameBackends = async (client: pg.Client, named: Map<number, string>): Promise<void> => {
  const { rows } = await client.query<{ pid: number; app: string }>(
    `select pid, application_name as app from pg_stat_activity where datname = current_database()`,
  );
  for (const r of rows) named.set(r.pid, `PostgreSQL ${r.app || 'other'}`);
};

/** Waits (up to two minutes) until the notifier and refunds have handled payment.completed of `ids`. */
const consumersCaughtUp = async (client: pg.Client, ids: string[]): Promise<void> => {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ notifier: number; refunds: number }>(
      `select (select count(*)::int from notifier.payment_customers where payment_id = any($1::uuid[])) as notifier,
              (select count(*)::int from refunds.refundable_payments where payment_id = any($1::uuid[])) as refunds`,
      [ids],
    );
    if (rows[0]!.notifier >= ids.length && rows[0]!.refunds >= ids.length) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.warn('the notifier or refunds had not handled every payment.completed after two minutes');
};

/** Waits for the notifier's copy of the merchant to say the address is confirmed. */
const untilNotifierKnowsConfirmed = async (url: string, publicId: string): Promise<void> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      const { rows } = await client.query(
        'select email_confirmed from notifier.merchants where public_id = $1',
        [publicId],
      );
      if (rows[0]?.email_confirmed) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the notifier never learned that the merchant confirmed its address');
  } finally {
    await client.end();
  }
};

/** Cumulative row writes per table (schema.table) and commits of the bench database. */
const tableWrites = async (client: pg.Client) => {
  const { rows } = await client.query<{ t: string; ins: string; upd: string; del: string }>(
    `select schemaname || '.' || relname as t, n_tup_ins as ins, n_tup_upd as upd, n_tup_del as del
       from pg_stat_user_tables`,
  );
  const { rows: db } = await client.query<{ commits: string }>(
    `select xact_commit as commits from pg_stat_database where datname = current_database()`,
  );
  return {
    tables: new Map(rows.map((r) => [r.t, [Number(r.ins), Number(r.upd), Number(r.del)]] as const)),
    commits: Number(db[0]!.commits),
  };
};

const writesPer = (
  before: Awaited<ReturnType<typeof tableWrites>>,
  after: Awaited<ReturnType<typeof tableWrites>>,
  units: number,
) => ({
  rows: [...after.tables]
    .map(([t, counts]) => [t, counts.map((c, i) => (c - (before.tables.get(t)?.[i] ?? 0)) / units)] as const)
    .filter(([, d]) => d.some((x) => x > 0.01))
    .map(([t, d]) => `${t} ${d.map((x) => x.toFixed(2)).join('/')}`)
    .join(', '),
  commits: ((after.commits - before.commits) / units).toFixed(2),
});

/** Receipts per second of a plain fetch loop of eth_getTransactionReceipt over `hashes`. */
const receiptLoop = async (rpcUrl: string, hashes: string[], concurrency: number): Promise<number> => {
  let next = 0;
  let id = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < hashes.length) {
        const hash = hashes[next++]!;
        const res = await fetch(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: ++id,
            method: 'eth_getTransactionReceipt',
            params: [hash],
          }),
        });
        const body = (await res.json()) as { result?: unknown };
        if (!body.result) throw new Error(`no receipt for ${hash}`);
      }
    }),
  );
  return hashes.length / ((performance.now() - started) / 1000);
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
