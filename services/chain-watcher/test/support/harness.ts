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
  type Logger,
  type RunningService,
} from '@stablepay/platform';
import {
  createTestDatabase,
  quietLogger,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '@stablepay/platform/testing';
import type { BlockchainName, ChainRegistry, Currency } from '@stablepay/contracts';
import {
  loadChainWatcherConfig,
  startChainWatcherService,
  type ChainWatcherConfig,
} from '../../src/index.js';
import { observeEvents, waitFor, type EventObserver } from './events.js';

export const SECRET = 'test-internal-token-secret-0123456789abcdef';
export const KEK = randomBytes(32).toString('hex');

export const randomTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;

export interface Merchant {
  merchantId: string;
  walletId: string;
  address: string;
  blockchain: BlockchainName;
  chainId: number;
}

export interface PaymentInput {
  merchant: Merchant;
  txHash: string;
  amount: string;
  expectedAmount?: string | null;
  currency?: Currency;
  chainId?: number;
  sourceChain?: BlockchainName;
  fromAddress: string;
  toAddress?: string;
  sessionCreatedAt?: string | null;
  createdAt?: string;
  isCrossChain?: boolean;
  /** Deliver the same payment.created envelope this many times. */
  copies?: number;
}

export interface Harness {
  url: string;
  db: Knex;
  bus: AmqpBus;
  prefix: string;
  amqpUrl: string;
  testDb: TestDatabase;
  config: ChainWatcherConfig;
  env: Record<string, string>;
  service: RunningService;
  events: EventObserver;
  call(
    path: string,
    opts?: { caller?: CallerKind; merchantId?: string },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  /** Publishes one envelope `copies` times (a redelivery carries the same id); returns its id. */
  publish(type: string, merchantId: string, data: Record<string, unknown>, copies?: number): Promise<string>;
  createMerchant(blockchain: BlockchainName, currencies?: Currency[]): Promise<Merchant>;
  publishPayment(p: PaymentInput): Promise<string>;
  /** The verdict event of a payment, once it arrives. */
  verdict(paymentId: string, timeoutMs?: number): Promise<Record<string, any>>;
  metrics(): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  registry: ChainRegistry;
  env?: Record<string, string>;
  logger?: Logger;
  /** Reuse another harness's database and queue prefix (a second replica). */
  share?: { testDb: TestDatabase; prefix: string };
}

/** Fast timings for tests; each test file can override any of them. */
const TEST_ENV: Record<string, string> = {
  VERIFY_POLL_MS: '50',
  VERIFY_MAX_BACKOFF_MS: '200',
  TX_NOT_FOUND_AFTER_MS: '60000',
  RPC_TIMEOUT_MS: '1000',
  SCAN_INTERVAL_MS: '100',
};

/** Builds the config a harness would use, without starting anything (for start-failure tests). */
export const watcherConfig = (registry: ChainRegistry, dbUrl: string, env: Record<string, string> = {}) =>
  loadChainWatcherConfig({
    INTERNAL_TOKEN_SECRET: SECRET,
    WALLET_KEK: KEK,
    DATABASE_URL: dbUrl,
    CHAIN_REGISTRY: JSON.stringify(registry),
    ...TEST_ENV,
    ...env,
  });

/** The real service on port 0, on a fresh PostgreSQL database and RabbitMQ prefix, against the devnet. */
export const startHarness = async (opts: HarnessOptions): Promise<Harness> => {
  const testDb = opts.share?.testDb ?? (await createTestDatabase());
  const amqpUrl = await testAmqpUrl();
  const prefix = opts.share?.prefix ?? testQueuePrefix();
  const env = { AMQP_URL: amqpUrl, AMQP_PREFIX: prefix, ...(opts.env ?? {}) };
  const config = watcherConfig(opts.registry, testDb.url, env);
  const logger = opts.logger ?? quietLogger('chain-watcher');
  const events = await observeEvents(amqpUrl, prefix, [
    'wallet.assigned',
    'chain.payment.verified',
    'chain.payment.rejected',
    'transfer.submitted',
    'transfer.confirmed',
    'transfer.failed',
  ]);
  // The service owns its connection (closed when it stops); the test reads through one of its own.
  const serviceDb = await createDatabase({ url: testDb.url, schema: config.DATABASE_SCHEMA, poolMax: 20 });
  const db = await createDatabase({ url: testDb.url, schema: config.DATABASE_SCHEMA, poolMax: 4 });
  const bus = new AmqpBus({ url: amqpUrl, prefix, logger });
  await bus.connect();
  const service = await startChainWatcherService({
    config,
    deps: { db: serviceDb, bus, logger, metrics: createMetrics('chain-watcher', false) },
    port: 0,
    host: '127.0.0.1',
  });

  // Tests publish through a connection of their own, which outlives a stopped service.
  const publisher = new AmqpBus({ url: amqpUrl, prefix, logger: quietLogger('publisher') });
  await publisher.connect();
  const publish: Harness['publish'] = async (type, merchantId, data, copies = 1) => {
    const event = buildEvent({
      type: type as 'merchant.created',
      producer: 'test',
      merchantId,
      data: data as never,
    });
    for (let i = 0; i < copies; i++) {
      await publisher.publish({
        id: event.id,
        type: event.type,
        body: event as unknown as Record<string, unknown>,
      });
    }
    return event.id;
  };

  const h: Harness = {
    url: service.url,
    db,
    bus,
    prefix,
    amqpUrl,
    testDb,
    config,
    env,
    service,
    events,
    call: async (path, o = {}) => {
      const caller = o.caller ?? 'api_key';
      const token = signInternalToken(SECRET, { caller, merchantId: o.merchantId });
      const res = await fetch(`${service.url}${path}`, { headers: { [INTERNAL_TOKEN_HEADER]: token } });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
    publish,
    createMerchant: async (blockchain, currencies = ['USDC', 'EURC']) => {
      const merchantId = randomUUID();
      await publish('merchant.created', merchantId, {
        merchantId,
        publicId: `sp_live_${randomUUID()}`,
        name: 'Test Shop',
        blockchain,
        acceptedCurrencies: currencies,
        email: 'shop@example.test',
      });
      const event = await events.waitFor(
        (e) => e.type === 'wallet.assigned' && e.data.merchantId === merchantId,
      );
      const { walletId, address, chainId } = event.data;
      return { merchantId, walletId, address, blockchain, chainId };
    },
    publishPayment: async (p) => {
      const paymentId = randomUUID();
      const amount = p.amount;
      await publish(
        'payment.created',
        p.merchant.merchantId,
        {
          paymentId,
          merchantId: p.merchant.merchantId,
          txHash: p.txHash,
          amount,
          expectedAmount: p.expectedAmount === undefined ? amount : p.expectedAmount,
          currency: p.currency ?? 'USDC',
          chainId: p.chainId ?? p.merchant.chainId,
          sourceChain: p.sourceChain ?? p.merchant.blockchain,
          fromAddress: p.fromAddress,
          toAddress: p.toAddress ?? p.merchant.address,
          isCrossChain: p.isCrossChain ?? false,
          bridgeKit: null,
          feeQuote: null,
          destinationChainId: null,
          sessionId: p.sessionCreatedAt ? `cs_live_${randomUUID()}` : null,
          sessionCreatedAt: p.sessionCreatedAt ?? null,
          createdAt: p.createdAt ?? new Date().toISOString(),
        },
        p.copies,
      );
      return paymentId;
    },
    verdict: (paymentId, timeoutMs = 15_000) =>
      events.waitFor((e) => e.type.startsWith('chain.payment.') && e.data.paymentId === paymentId, timeoutMs),
    metrics: async () => (await fetch(`${service.url}/metrics`)).text(),
    close: async () => {
      await service.stop();
      await events.close();
      await publisher.close();
      await db.destroy();
      if (!opts.share) await testDb.drop();
    },
  };
  return h;
};

export { metricValue } from '@stablepay/platform/testing';

export { waitFor };
