/**
 * Proof under faults (`npm run test:faults`; not part of `npm test`). Its own PostgreSQL and RabbitMQ
 * on spare ports, the devnet, and two processes of every service behind one address each; steady
 * load through the gateway while each service's replicas are SIGKILLed in turn, RabbitMQ is
 * restarted and PostgreSQL is restarted; then everything drains and every promise is counted.
 * See docs/faults.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parseUnits } from 'ethers';
import { API_KEY_SCOPES } from '@stablepay/contracts';
import { confirmEmailFromMail, startProcessStack, type ProcessStack } from '@stablepay/stack';
import { countBrokenPromises, reconciledAfter, type Findings } from './checks.js';
import { startPostgres, startRabbit, type Instance } from './instances.js';
import { LoadGenerator, type Merchant } from './load.js';
import { startFlakyReceiver } from './receiver.js';
import { deadLetterReasons } from './dead-letters.js';

const MERCHANTS = Number(process.env.FAULTS_MERCHANTS ?? 3);
const CUSTOMERS = Number(process.env.FAULTS_CUSTOMERS ?? 4);
const WARMUP_MS = Number(process.env.FAULTS_WARMUP_MS ?? 15_000);
const SETTLE_MS = Number(process.env.FAULTS_SETTLE_MS ?? 2_000);
const DRAIN_MS = Number(process.env.FAULTS_DRAIN_MS ?? 240_000);
const WEBHOOK_FAILURE_RATE = 0.2;
/** Every service, killed in this order; the gateway last, as it carries the load itself. */
const SERVICES = ['chain-watcher', 'payments', 'refunds', 'invoicing', 'notifier', 'gateway'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`  [faults ${new Date().toISOString().slice(11, 19)}] ${line}`);

describe('proof under faults: two replicas of every service, killed in turn, broker and database restarted, under load', function () {
  this.timeout(30 * 60_000);
  let postgres: Instance;
  let rabbit: Awaited<ReturnType<typeof startRabbit>>;
  let stack: ProcessStack;
  let receiver: Awaited<ReturnType<typeof startFlakyReceiver>>;
  let load: LoadGenerator;
  let varDir: string;
  let chainWatch: NodeJS.Timeout | undefined;

  before(async () => {
    varDir = mkdtempSync(join(tmpdir(), 'sp-faults-'));
    [postgres, rabbit] = await Promise.all([startPostgres(), startRabbit()]);
    log(
      `PostgreSQL ${postgres.url}, RabbitMQ ${rabbit.url} (node ${rabbit.nodename}); logs in ${varDir}/logs`,
    );
    receiver = await startFlakyReceiver(WEBHOOK_FAILURE_RATE);
    stack = await startProcessStack({
      varDir,
      logDir: join(varDir, 'logs'),
      databaseUrl: postgres.url,
      amqpUrl: rabbit.url,
      amqpPrefix: 'faults.',
      replicas: 2,
      restartOnExit: true,
      customers: CUSTOMERS,
      confirmations: 1,
      logLevel: 'warn',
      env: {
        SCRYPT_COST: '10',
        // The gasless payers pay every few seconds, and the relay's daily budget is not under test.
        GASLESS_PAYER_LIMIT_PER_MINUTE: '1000',
        GASLESS_DAILY_GAS_BUDGET_WEI: '100000000000000000000',
        RATE_LIMIT_PUBLIC_PER_MINUTE: '100000000',
        RATE_LIMIT_KEY_PER_MINUTE: '100000000',
        RATE_LIMIT_AUTH_PER_MINUTE: '100000000',
        RATE_LIMIT_FAILED_KEYS_PER_MINUTE: '100000000',
        SIGNIN_LOCKOUT_FAILURES: '100000000',
        UPSTREAM_TIMEOUT_MS: '5000',
        REFUND_HOLD_SECONDS: '1',
        DISPATCH_POLL_MS: '250',
        SCAN_INTERVAL_MS: '250',
        CCTP_POLL_MS: '250',
        CCTP_MAX_BACKOFF_MS: '1000',
        VERIFY_MAX_BACKOFF_MS: '2000',
        TRANSFER_MAX_BACKOFF_MS: '2000',
        RECOVERY_AFTER_MS: '5000',
        RPC_TIMEOUT_MS: '3000',
        // The least the spec's 5 s answer window allows (2 × 5 s + 1 s), so a killed replica's
        // attempts are taken over soon.
        WEBHOOK_LEASE_MS: '11000',
        WEBHOOK_RETRY_SCHEDULE: '0,500,1s,2s,3s,3s,3s,3s,3s,3s,3s,3s,3s,3s',
      },
    });
    log(`stack ready: ${stack.services.length} service processes, gateway ${stack.gatewayUrl}`);
  });

  after(async () => {
    clearInterval(chainWatch);
    load?.close();
    await stack?.stop().catch((err) => console.error('stack stop', err));
    await receiver?.close();
    await rabbit?.stop().catch((err) => console.error('rabbitmq stop', err));
    await postgres?.stop().catch((err) => console.error('postgres stop', err));
    if (varDir && !process.env.FAULTS_KEEP) rmSync(varDir, { recursive: true, force: true });
  });

  const register = async (n: number): Promise<Merchant> => {
    const gw = new LoadGenerator(stack, []);
    const email = `faults-shop-${n}@example.com`;
    const password = 'correct horse battery staple';
    const r = await gw.until('POST', '/auth/register', {
      body: { email, password, merchantName: `Shop ${n}`, blockchain: 'BASE' },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    // The confirmation link the notifier wrote to the stack's mail directory (withdrawals wait for it).
    await confirmEmailFromMail(stack.gatewayUrl, join(varDir, 'mail'), email, 120_000);
    const signIn = async () => {
      const login = await gw.until('POST', '/auth/login', { body: { email, password } });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      return { authorization: `Bearer ${login.body.data.access_token}` };
    };
    const bearer = await signIn();
    // The load requests withdrawals by API key too: a scope only ever given on purpose.
    const key = await gw.until('POST', '/api-keys', {
      body: { name: 'server', scopes: [...API_KEY_SCOPES] },
      headers: bearer,
    });
    expect(key.status).to.equal(201);
    const merchantId = (await gw.until('GET', '/auth/me', { headers: bearer })).body.data.merchant
      .id as string;
    let wallet: string | undefined;
    for (let i = 0; i < 300 && !wallet; i++) {
      const w = await gw.call('GET', `/merchants/${merchantId}/wallet`);
      wallet = w.status === 200 ? w.body.data.wallet.address : (await sleep(100), undefined);
    }
    expect(wallet, 'wallet assigned').to.be.a('string');
    const profile = await gw.until('PUT', '/billing-profile', {
      headers: bearer,
      body: {
        legal_name: `Shop ${n} SAS`,
        address_line1: '12 rue de la Paix',
        postal_code: '75002',
        city: 'Paris',
        country: 'FR',
        vat_number: 'FR12345678901',
        language: 'en',
      },
    });
    expect(profile.status, JSON.stringify(profile.body)).to.equal(200);
    const merchant: Merchant = {
      merchantId,
      bearer,
      signIn,
      key: { 'x-api-key': key.body.data.key },
      wallet: wallet!,
      endpoints: [],
    };
    // Two endpoints per merchant, both for payment.completed, both failing a share of the attempts.
    for (const e of [0, 1]) {
      const path = `/hooks/${n}/${e}`;
      const hook = await gw.until('POST', '/merchant-webhooks/api/create', {
        headers: merchant.key,
        body: { url: receiver.urlOf(path), events: ['payment.completed'] },
      });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
      merchant.endpoints.push(path);
    }
    return merchant;
  };

  it('keeps every payment, refund, withdrawal, webhook and invoice number exactly once', async () => {
    const merchants: Merchant[] = [];
    for (let n = 0; n < MERCHANTS; n++) merchants.push(await register(n));
    for (const c of stack.devnet.customers)
      for (const chain of ['BASE', 'ETH'] as const)
        await stack.devnet.fund(chain, c.address, { USDC: parseUnits('1000000', 6) });
    load = new LoadGenerator(stack, merchants);
    load.start(stack.devnet.customers);
    // The chains are not under test: if one stops answering, say so plainly rather than blame the stack.
    const chainsDown = new Set<string>();
    chainWatch = setInterval(() => {
      for (const c of stack.devnet.chains)
        void fetch(c.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
        }).catch(() => {
          if (!chainsDown.has(c.name)) log(`devnet chain ${c.name} stopped answering (${c.rpcUrl})`);
          chainsDown.add(c.name);
        });
    }, 2_000);
    log(`load started: ${CUSTOMERS} customers paying ${MERCHANTS} merchants`);
    await sleep(WARMUP_MS);

    const faults: string[] = [];
    const fault = async (what: string, act: () => Promise<void>) => {
      const t0 = Date.now();
      await act();
      faults.push(`${what} (${((Date.now() - t0) / 1000).toFixed(1)} s until back)`);
      log(`${what}: back after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      await sleep(SETTLE_MS);
    };
    for (const name of SERVICES) {
      for (const replica of stack.replicasOf(name)) {
        await fault(`SIGKILL ${name} replica ${replica.replica}`, async () => {
          await replica.kill('SIGKILL');
          await sleep(1_000);
          await replica.start();
        });
      }
    }
    await fault('RabbitMQ restarted', () => rabbit.restart());
    await sleep(5_000);
    await fault('PostgreSQL restarted (immediate stop: crash recovery)', () => postgres.restart());
    await sleep(5_000);
    await load.stop();
    clearInterval(chainWatch);
    expect(
      [...chainsDown],
      'devnet chains that died during the run (outside the faults injected)',
    ).to.deep.equal([]);
    log(`load stopped; draining (up to ${DRAIN_MS / 1000} s)`);

    const base = stack.devnet.chains.find((c) => c.name === 'BASE')!;
    const check = (deadLetters: Array<{ name: string; messages: number }>) =>
      countBrokenPromises({ databaseUrl: postgres.url, load, receiver, base, deadLetters });
    const drainStart = Date.now();
    // Draining: work still under way. Anything else (lost, duplicated, unexplained) waiting cannot mend.
    const underWay = (f: Findings) =>
      Object.keys(f.counts).some((k) =>
        /not completed|not delivered|without an invoice|exactly one transfer|never learned|differ from the chain|did not hand over|exactly one mined|exactly one AuthorizationUsed|receive the total|sent other than exactly once/.test(
          k,
        ),
      );
    let findings: Findings = await check([]);
    let told = Date.now();
    while (underWay(findings) && Date.now() - drainStart < DRAIN_MS) {
      await sleep(3_000);
      findings = await check([]);
      // What the drain still waits for, every 15 s: a slow drain names its cause.
      if (Date.now() - told >= 15_000) {
        told = Date.now();
        log(`still under way: ${JSON.stringify(findings.counts)}`);
      }
    }
    const drainedIn = (Date.now() - drainStart) / 1000;
    // How long after the drain the reconciliation says every wallet agrees with the chain.
    const drainedAt = new Date();
    const reconciledIn = await reconciledAfter(postgres.url, drainedAt, 120_000);
    const queues = rabbit.queues();
    const deadLetters = queues.filter((q) => q.name.endsWith('.dlq'));
    findings = await check(deadLetters);
    findings.details.push(...(await deadLetterReasons(rabbit.url, deadLetters)));

    const seconds = (load.stoppedAt - load.startedAt) / 1000;
    const hooks = await receiver.snapshot();
    const accepted = load.payments.filter((p) => p.paymentId);
    const summary = [
      `load held for ${seconds.toFixed(0)} s: ${load.requests} gateway requests (${(load.requests / seconds).toFixed(1)} requests/s)`,
      `answers: ${[...load.answers]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s === 0 ? 'no answer' : s} × ${n}`)
        .join(', ')}`,
      `payments: ${accepted.length} accepted (${accepted.filter((p) => p.kind === 'same-chain').length} same-chain, ${accepted.filter((p) => p.kind === 'gasless').length} gasless same-chain, ${accepted.filter((p) => p.kind === 'cross-chain').length} cross-chain over CCTP)`,
      ...findings.notes,
      `refunds: ${load.refunds.filter((r) => r.refundId).length} accepted; withdrawals: ${load.withdrawals.filter((w) => w.withdrawalId).length} accepted, ${load.withdrawals.filter((w) => w.status === 'refused: 422').length} refused for funds`,
      `load errors (the load generator's own): ${[...load.loadErrors].map(([m, n]) => `${m} × ${n}`).join('; ') || 'none'}`,
      `webhooks: ${hooks.attempts} attempts received, ${hooks.failed} answered 500, ${hooks.redelivered} redeliveries of an acknowledged event`,
      `faults survived (${faults.length}):`,
      ...faults.map((f) => `  - ${f}`),
      `replicas that exited unasked and were restarted: ${
        stack.services
          .filter((s) => s.unaskedExits > 0)
          .map((s) => `${s.name}/${s.replica} × ${s.unaskedExits}`)
          .join(', ') || 'none'
      }`,
      `drained in ${drainedIn.toFixed(0)} s; dead-letter queues: ${queues.filter((q) => q.name.endsWith('.dlq')).length}, messages in them: ${queues.filter((q) => q.name.endsWith('.dlq')).reduce((n, q) => n + q.messages, 0)}`,
      `reconciliation after the drain: ${reconciledIn === undefined ? 'no run with every wallet agreeing within 120 s' : `every wallet agrees ${reconciledIn.toFixed(1)} s after the drain`}`,
      `broken promises: ${Object.keys(findings.counts).length === 0 ? 'none' : ''}`,
      ...Object.entries(findings.counts).map(([k, n]) => `  - ${k}: ${n}`),
      ...findings.details.map((d) => `    ${d}`),
    ];
    console.log(`\n  Proof under faults\n${summary.map((l) => `  ${l}`).join('\n')}\n`);
    expect(accepted.length, 'payments made under load').to.be.greaterThan(0);
    expect(reconciledIn, 'a reconciliation with every wallet agreeing after the drain').to.not.equal(
      undefined,
    );
    expect(findings.counts, findings.details.join('\n')).to.deep.equal({});
  });
});
