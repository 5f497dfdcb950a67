/**
 * Gasless same-chain payments beside the transfer path, in one run of the whole stack on the devnet
 * (PostgreSQL + RabbitMQ, each service its own process as deployed):
 *  - CPU per payment of each path, per service process and for every process of the machine (from
 *    /proc), the two paths alternating in rounds so that a busy machine weighs on both alike;
 *  - the relay's gas per gasless payment: gas used by its transaction, in gas units and in ETH at the
 *    devnet's price (the receipts' effective gas price), beside the customer's own transfer;
 *  - latency to payment.completed on the bus: from the signature (gasless) and from sending the
 *    transfer (transfer path), p50 and p99.
 * Payers of the gasless path are fresh wallets holding only USDC, funded by the devnet customers.
 *
 *   npm run build --silent && node --import tsx bench/gasless.ts      (N=200 CONCURRENCY=4 ROUNDS=4)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import amqp from 'amqplib';
import pg from 'pg';
import { Contract, JsonRpcProvider, NonceManager, Wallet, formatEther, parseUnits } from 'ethers';
import { transferAuthorizationTypedData } from '@stablepay/contracts';
import { fiatTokenAbi, type DevnetChain } from '@stablepay/devnet';
import { startProcessStack, type ProcessStack } from '@stablepay/stack';
import { cpuByGroup, cpuMsOf, cpuSpentPer, percentile } from './stats.js';
import { benchBackends } from './backends.js';

const N = Number(process.env.N ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const SERVICES = ['gateway', 'payments', 'chain-watcher', 'notifier', 'refunds', 'invoicing'];

type Path = 'transfer' | 'gasless';
interface Sample {
  paymentId: string;
  ms: number;
  /** the customer's transaction (transfer path) */
  txHash?: string;
}

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms`;
};

/** payment.completed as it reaches the bus, by payment id. */
const watchCompletions = async (conn: amqp.ChannelModel, prefix: string) => {
  const completedAt = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const ch = await conn.createChannel();
  const { queue } = await ch.assertQueue('', { exclusive: true });
  await ch.bindQueue(queue, `${prefix}stablepay.events`, 'payment.completed');
  await ch.consume(
    queue,
    (m) => {
      if (!m) return;
      const id = JSON.parse(m.content.toString()).data.payment_id as string;
      completedAt.set(id, performance.now());
      waiters.get(id)?.();
    },
    { noAck: true },
  );
  return async (id: string): Promise<number> => {
    if (!completedAt.has(id)) await new Promise<void>((res) => waiters.set(id, res));
    return completedAt.get(id)!;
  };
};

const registerMerchant = async (gw: string) => {
  const post = async (path: string, body: unknown) =>
    (await fetch(`${gw}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as any;
  const email = 'gasless-bench@shop.example';
  const password = 'correct horse battery staple';
  await post('/auth/register', { email, password, merchantName: 'Bench', blockchain: 'BASE' });
  const login = await post('/auth/login', { email, password });
  const me = await fetch(`${gw}/auth/me`, {
    headers: { authorization: `Bearer ${login.data.access_token}` },
  }).then((r) => r.json() as any);
  const merchantId = me.data.merchant.id as string;
  for (;;) {
    const r = await fetch(`${gw}/merchants/${merchantId}/wallet`);
    if (r.status === 200)
      return { merchantId, wallet: ((await r.json()) as any).data.wallet.address as string };
    await new Promise((res) => setTimeout(res, 100));
  }
};

/**
 * CPU used so far by this process and every process it started (the services, anvil): the run's own
 * share, apart from whatever else the machine runs (the shared PostgreSQL and RabbitMQ excepted).
 */
const ownCpuMs = (): number => {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  let ms = 0;
  for (const pending = [process.pid]; pending.length > 0;) {
    const pid = pending.pop()!;
    try {
      ms += cpuMsOf(pid);
    } catch {
      // ended meanwhile
    }
    pending.push(...(children.get(pid) ?? []));
  }
  return ms;
};

const main = async () => {
  const { db, amqpUrl, prefix, varDir, release } = await benchBackends();
  const stack = await startProcessStack({
    varDir,
    databaseUrl: db.url,
    amqpUrl,
    amqpPrefix: prefix,
    customers: CONCURRENCY,
    env: {
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000000',
      SCRYPT_COST: '10',
      GASLESS_PAYER_LIMIT_PER_MINUTE: '1000',
      GASLESS_DAILY_GAS_BUDGET_WEI: '100000000000000000000',
    },
  });
  const conn = await amqp.connect(amqpUrl);
  const chain = stack.devnet.chains.find((c) => c.name === 'BASE')!;
  const provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  try {
    const completion = await watchCompletions(conn, prefix);
    const shop = await registerMerchant(stack.gatewayUrl);
    const payers = await preparePayers(stack, provider, chain.tokens.USDC);
    const pay = payOnce(stack, shop, chain, completion);
    const measured = await measureRounds(stack, payers, pay);
    printReport(measured, await gasOf(db.url, provider, measured.samples));
  } finally {
    provider.destroy();
    await conn.close();
    await stack.stop();
    await release();
  }
};

/**
 * The two paths in alternating rounds, CPU read around each round: per service process, per group
 * of every process of the machine, and for the run's own processes.
 */
const measureRounds = async (
  stack: ProcessStack,
  payers: Payer[],
  pay: (path: Path, payer: Payer) => Promise<Sample>,
) => {
  const named = new Map(stack.services.map((s) => [s.child.pid!, s.name]));
  named.set(process.pid, 'bench');
  const samples: Record<Path, Sample[]> = { transfer: [], gasless: [] };
  const cpu: Record<Path, Map<string, number>> = { transfer: new Map(), gasless: new Map() };
  const machine: Record<Path, Map<string, number>> = { transfer: new Map(), gasless: new Map() };
  const own: Record<Path, number> = { transfer: 0, gasless: 0 };
  const perRound = Math.ceil(N / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of ['transfer', 'gasless'] as const) {
      const count = Math.min(perRound, N - round * perRound);
      const before = new Map(SERVICES.map((n) => [n, cpuMsOf(stack.byName(n).child.pid)]));
      const machineBefore = cpuByGroup(named);
      const ownBefore = ownCpuMs();
      let next = 0;
      await Promise.all(
        payers.map(async (p) => {
          while (next < count) {
            next++;
            samples[path].push(await pay(path, p));
          }
        }),
      );
      own[path] += ownCpuMs() - ownBefore;
      for (const n of SERVICES)
        cpu[path].set(n, (cpu[path].get(n) ?? 0) + cpuMsOf(stack.byName(n).child.pid) - before.get(n)!);
      for (const [g, ms] of cpuByGroup(named))
        machine[path].set(g, (machine[path].get(g) ?? 0) + ms - (machineBefore.get(g) ?? 0));
    }
  }
  return { samples, cpu, machine, own };
};

type Measured = Awaited<ReturnType<typeof measureRounds>>;

const printReport = ({ samples, cpu, machine, own }: Measured, gas: Awaited<ReturnType<typeof gasOf>>) => {
  console.log(
    `\ngasless same-chain payments beside the transfer path on the devnet (anvil, BASE), PostgreSQL + RabbitMQ, node ${process.version}, ${cpus().length} cores, ${N} payments per path, ${CONCURRENCY} at a time, load average at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const perPayment = (path: Path) =>
    SERVICES.map((n) => `${n} ${(cpu[path].get(n)! / samples[path].length).toFixed(1)}`).join(', ');
  const sumOf = (path: Path) => [...cpu[path].values()].reduce((a, b) => a + b, 0) / samples[path].length;
  const zero = new Map<string, number>();
  console.table([
    { measure: 'gasless: signature → payment.completed', value: summary(samples.gasless.map((s) => s.ms)) },
    {
      measure: 'transfer: transfer sent → payment.completed',
      value: summary(samples.transfer.map((s) => s.ms)),
    },
    {
      measure: 'CPU ms per payment, services, gasless',
      value: `${sumOf('gasless').toFixed(1)} (${perPayment('gasless')})`,
    },
    {
      measure: 'CPU ms per payment, services, transfer',
      value: `${sumOf('transfer').toFixed(1)} (${perPayment('transfer')})`,
    },
    {
      measure: "CPU ms per payment, this run's processes (bench, services, anvil): gasless / transfer",
      value: `${(own.gasless / samples.gasless.length).toFixed(1)} / ${(own.transfer / samples.transfer.length).toFixed(1)}`,
    },
    {
      measure: 'CPU ms per payment, every process of the machine, gasless',
      value: cpuSpentPer(zero, machine.gasless, samples.gasless.length),
    },
    {
      measure: 'CPU ms per payment, every process of the machine, transfer',
      value: cpuSpentPer(zero, machine.transfer, samples.transfer.length),
    },
    { measure: 'relay gas per gasless payment (mined transaction)', value: gas.relay },
    { measure: "the customer's own transfer (transfer path)", value: gas.transfer },
    {
      measure: 'relay transactions signed per gasless payment (replacements included)',
      value: gas.signedPerPayment,
    },
  ]);
};

interface Payer {
  /** a devnet customer, with gas: the transfer path */
  customer: { address: string; token: Contract };
  /** a fresh wallet holding only USDC: the gasless path */
  gasless: Wallet;
}

/** One devnet customer per concurrent loop, and a gasless wallet it funds with USDC. */
const preparePayers = async (
  stack: ProcessStack,
  provider: JsonRpcProvider,
  usdc: string,
): Promise<Payer[]> =>
  Promise.all(
    stack.devnet.customers.slice(0, CONCURRENCY).map(async (c) => {
      await stack.devnet.fund('BASE', c.address, { USDC: parseUnits('100000', 6) });
      const signer = new NonceManager(new Wallet(c.privateKey, provider));
      const token = new Contract(usdc, fiatTokenAbi(), signer);
      const gasless = new Wallet(Wallet.createRandom().privateKey);
      await (await token.getFunction('transfer')(gasless.address, parseUnits('1000', 6))).wait();
      if ((await provider.getBalance(gasless.address)) !== 0n) throw new Error('a gasless payer holds gas');
      return { customer: { address: c.address, token }, gasless };
    }),
  );

/** One payment of 1 USDC by either path, timed to its payment.completed. */
const payOnce =
  (
    stack: ProcessStack,
    shop: { merchantId: string; wallet: string },
    chain: DevnetChain,
    completion: (id: string) => Promise<number>,
  ) =>
  async (path: Path, payer: Payer): Promise<Sample> => {
    // A busy machine may answer 5xx now and then: the same request again (both routes are
    // idempotent on it), a few times, rather than lose the run.
    const call = async (route: string, body?: unknown): Promise<any> => {
      for (let attempt = 1; ; attempt++) {
        const r = await fetch(`${stack.gatewayUrl}${route}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = (await r.json()) as any;
        if (r.status < 300) return json.data;
        if (r.status < 500 || attempt === 5) throw new Error(`${route}: ${r.status} ${JSON.stringify(json)}`);
        await new Promise((res) => setTimeout(res, 500 * attempt));
      }
    };
    const post = async (route: string, body: unknown) => (await call(route, body)).paymentId as string;
    if (path === 'transfer') {
      const started = performance.now();
      const tx = await payer.customer.token.getFunction('transfer')(shop.wallet, parseUnits('1', 6));
      await tx.wait();
      const paymentId = await post('/payments/create-public', {
        merchantId: shop.merchantId,
        txHash: tx.hash,
        amount: 1,
        expectedAmount: 1,
        token: 'USDC',
        chainId: chain.chainId,
        fromAddress: payer.customer.address,
        toAddress: shop.wallet,
        customerEmail: 'payer@example.com',
      });
      return { paymentId, ms: (await completion(paymentId)) - started, txHash: tx.hash };
    }
    const query = new URLSearchParams({
      merchantId: shop.merchantId,
      chainId: String(chain.chainId),
      token: 'USDC',
      amount: '1',
    });
    const quote = await call(`/payments/gasless-quote?${query}`);
    const typed = transferAuthorizationTypedData(quote.domain, {
      from: payer.gasless.address,
      to: quote.authorization.to,
      value: BigInt(quote.authorization.value),
      validAfter: 0,
      validBefore: Number(quote.authorization.validBefore),
      nonce: quote.authorization.nonce,
    });
    const { EIP712Domain: _domain, ...types } = typed.types;
    const signature = await payer.gasless.signTypedData(typed.domain, types, typed.message);
    const signed = performance.now();
    const paymentId = await post('/payments/create-gasless', {
      merchantId: shop.merchantId,
      chainId: chain.chainId,
      token: 'USDC',
      authorization: { ...typed.message, signature },
      quote,
      customerEmail: 'no-gas@example.com',
    });
    return { paymentId, ms: (await completion(paymentId)) - signed };
  };

/** Gas of each path from the receipts: the relay's mined transaction, and the customer's transfer. */
const gasOf = async (databaseUrl: string, provider: JsonRpcProvider, samples: Record<Path, Sample[]>) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ids = samples.gasless.map((s) => s.paymentId);
  const { rows } = await client.query(
    `select g.used_tx_hash, (select count(*)::int from chain_watcher.gasless_relay_transactions t
                               where t.payment_id = g.payment_id) as signed
       from chain_watcher.gasless_payments g where g.payment_id = any($1::uuid[])`,
    [ids],
  );
  await client.end();
  const costOf = async (hashes: string[]) => {
    let gas = 0n;
    let wei = 0n;
    for (const h of hashes) {
      const r = (await provider.getTransactionReceipt(h))!;
      gas += r.gasUsed;
      wei += r.gasUsed * r.gasPrice;
    }
    const n = BigInt(hashes.length);
    return `${(gas / n).toString()} gas, ${formatEther(wei / n)} ETH at ${(Number(wei / gas) / 1e9).toFixed(3)} gwei (mean of ${hashes.length})`;
  };
  const signed = rows.reduce((a, r) => a + Number(r.signed), 0);
  return {
    relay: await costOf(rows.map((r) => r.used_tx_hash as string)),
    transfer: await costOf(samples.transfer.map((s) => s.txHash!)),
    signedPerPayment: (signed / rows.length).toFixed(2),
  };
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
