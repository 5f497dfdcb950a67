import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  AmqpBus,
  INTERNAL_TOKEN_HEADER,
  buildEvent,
  createDatabase,
  createMetrics,
  signInternalToken,
  type CallerKind,
  type EventEnvelope,
  type RunningService,
} from '@stablepay/platform';
import {
  createTestDatabase,
  quietLogger,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '@stablepay/platform/testing';
import type { BlockchainName, Currency } from '@stablepay/contracts';
import { loadRefundsConfig, startRefundsService, type RefundsConfig } from '../../src/index.js';
import { BalanceServer } from './balance-server.js';

export const SECRET = 'test-internal-token-secret-0123456789abcdef';
export const DAY_MS = 86_400_000;

import { waitFor } from '@stablepay/platform/testing';

export { waitFor };

export const randomTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;
export const randomAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

export interface TestMerchant {
  merchantId: string;
}
export const newMerchant = (): TestMerchant => ({ merchantId: randomUUID() });

export interface SeededPayment {
  id: string;
  merchant: TestMerchant;
  amount: string;
  currency: Currency;
  fromAddress: string;
  txHash: string;
  blockchain: BlockchainName;
  completedAt: string;
}

export interface SeedOptions {
  amount?: string;
  currency?: Currency;
  completedAt?: Date;
  /** a cross-chain payment from `source` that the merchant received on `destination` */
  crossChain?: { source: BlockchainName; destination: BlockchainName };
  sourceChain?: string;
}

export interface Harness {
  url: string;
  db: Knex;
  bus: AmqpBus;
  prefix: string;
  amqpUrl: string;
  config: RefundsConfig;
  service: RunningService;
  balances: BalanceServer;
  call(
    method: string,
    path: string,
    opts?: { merchant?: TestMerchant; caller?: CallerKind; body?: unknown; anonymous?: boolean },
  ): Promise<{ status: number; body: any }>;
  publish(event: EventEnvelope, times?: number): Promise<void>;
  /** Publishes a real payment.completed and waits until the service has projected it. */
  seedPayment(merchant: TestMerchant, opts?: SeedOptions): Promise<SeededPayment>;
  /** Another instance of the service on the same database and broker prefix. */
  startReplica(): Promise<RunningService>;
  close(): Promise<void>;
}

/**
 * The real service on port 0, on a fresh PostgreSQL database and a fresh RabbitMQ prefix, with a
 * real HTTP server in the chain-watcher's place. Refunds are held for an hour unless the suite
 * asks otherwise, so nothing is dispatched behind a test's back.
 */
export const startHarness = async (env: Record<string, string> = {}): Promise<Harness> => {
  const testDb: TestDatabase = await createTestDatabase();
  const amqpUrl = await testAmqpUrl();
  const prefix = testQueuePrefix();
  const balances = await new BalanceServer(SECRET).start();
  const config = loadRefundsConfig({
    INTERNAL_TOKEN_SECRET: SECRET,
    DATABASE_URL: testDb.url,
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: prefix,
    CHAIN_WATCHER_URL: balances.url,
    REFUND_HOLD_SECONDS: '3600',
    DISPATCH_POLL_MS: '50',
    ...env,
  });
  const connections: Array<{ db: Knex; bus: AmqpBus }> = [];
  const instances: RunningService[] = [];
  const startInstance = async (): Promise<RunningService> => {
    const logger = quietLogger('refunds');
    const db = await createDatabase({ url: testDb.url, schema: config.DATABASE_SCHEMA, poolMax: 25 });
    const bus = new AmqpBus({ url: amqpUrl, prefix, logger });
    await bus.connect();
    connections.push({ db, bus });
    const service = await startRefundsService({
      config,
      deps: { db, bus, logger, metrics: createMetrics('refunds', false) },
      port: 0,
      host: '127.0.0.1',
    });
    instances.push(service);
    return service;
  };
  const service = await startInstance();
  const { db, bus } = connections[0]!;

  const call: Harness['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!opts.anonymous) {
      const caller = opts.caller ?? (opts.merchant ? 'api_key' : 'public');
      headers[INTERNAL_TOKEN_HEADER] = signInternalToken(SECRET, {
        caller,
        merchantId: caller === 'public' ? undefined : opts.merchant?.merchantId,
      });
    }
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  const publish: Harness['publish'] = async (event, times = 1) => {
    for (let i = 0; i < times; i++) {
      await bus.publish({
        id: event.id,
        type: event.type,
        body: event as unknown as Record<string, unknown>,
      });
    }
  };

  const seedPayment: Harness['seedPayment'] = async (merchant, opts = {}) => {
    const id = randomUUID();
    const completedAt = (opts.completedAt ?? new Date()).toISOString();
    const seeded: SeededPayment = {
      id,
      merchant,
      amount: opts.amount ?? '100.000000',
      currency: opts.currency ?? 'USDC',
      fromAddress: randomAddress(),
      txHash: randomTxHash(),
      blockchain: opts.crossChain?.destination ?? 'BASE',
      completedAt,
    };
    await publish(paymentCompleted(seeded, opts));
    await waitFor(() => db('refundable_payments').where({ payment_id: id }).first());
    return seeded;
  };

  return {
    url: service.url,
    db,
    bus,
    prefix,
    amqpUrl,
    config,
    service,
    balances,
    call,
    publish,
    seedPayment,
    startReplica: startInstance,
    close: async () => {
      for (const s of instances.reverse()) await s.stop();
      await balances.close();
      await testDb.drop();
    },
  };
};

/** The payment.completed the payments service publishes for `p`. */
export const paymentCompleted = (p: SeededPayment, opts: SeedOptions = {}) =>
  buildEvent({
    type: 'payment.completed',
    producer: 'payments',
    merchantId: p.merchant.merchantId,
    data: {
      payment_id: p.id,
      merchant_id: p.merchant.merchantId,
      amount: p.amount,
      currency: p.currency,
      status: 'completed',
      tx_hash: p.txHash,
      from_address: p.fromAddress,
      to_address: randomAddress(),
      source_chain: opts.sourceChain ?? opts.crossChain?.source ?? p.blockchain,
      destination_chain: opts.crossChain?.destination ?? null,
      is_cross_chain: opts.crossChain !== undefined,
      customer_email: 'buyer@example.test',
      reference: null,
      metadata: {},
      completed_at: p.completedAt,
    },
  });

export { observeEvents } from '@stablepay/platform/testing';

/** Waits for the event about `refundId` (of `type`, when given) to reach the observer. */
export const waitForMessage = (
  observer: { messages: Array<Record<string, any>> },
  refundId: string,
  type?: string,
): Promise<Record<string, any>> =>
  waitFor(async () =>
    observer.messages.find((m) => m.data?.refund_id === refundId && (type === undefined || m.type === type)),
  );

/** Creates a refund through the API and returns its id (asserting 201). */
export const createRefund = async (
  h: Harness,
  p: SeededPayment,
  body: Record<string, unknown> = {},
): Promise<string> => {
  const res = await h.call('POST', '/refunds/api/create', {
    merchant: p.merchant,
    body: { paymentId: p.id, reason: 'requested_by_customer', ...body },
  });
  if (res.status !== 201) throw new Error(`refund not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
};

export const refundRow = (h: Harness, id: string) => h.db('refunds').where({ id }).first();

/** Waits until the refund has the status, and returns its detail view. */
export const waitForStatus = async (h: Harness, p: SeededPayment, id: string, status: string) =>
  waitFor(async () => {
    const res = await h.call('GET', `/refunds/api/${id}`, { merchant: p.merchant });
    return res.body?.data?.status === status ? res.body.data : undefined;
  });
