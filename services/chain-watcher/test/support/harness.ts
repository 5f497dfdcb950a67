import { randomBytes, randomUUID } from 'node:crypto';
import {
  EventTypes,
  type BlockchainName,
  type ChainRegistry,
  type Currency,
  type EventDataInput,
  type EventType,
  type PaymentCreatedData,
} from '@stablepay/contracts';
import {
  AmqpBus,
  createDatabase,
  createLogger,
  createMetrics,
  startDefinedService,
  type Logger,
} from '@stablepay/platform';
import {
  TEST_INTERNAL_SECRET,
  TEST_METRICS_TOKEN,
  scrapeMetrics,
  bootService,
  type ServiceUnderTest,
  callService,
  createTestDatabase,
  observeEvents,
  publishEvent,
  quietLogger,
  testAmqpUrl,
  testQueuePrefix,
  waitFor,
  type CallOptions,
  type EventObserver,
  type PublishOptions,
} from '@stablepay/platform/testing';
import { chainWatcherService, type ChainWatcherConfig, type WatcherContext } from '../../src/index.js';

export const KEK = randomBytes(32).toString('hex');

export const randomTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;

export interface Merchant {
  merchantId: string;
  walletId: string;
  address: string;
  blockchain: BlockchainName;
  chainId: number;
}

/** A payment.created to publish: what the test names, the rest defaults to a same-chain USDC payment. */
export type PaymentInput = Pick<PaymentCreatedData, 'txHash' | 'amount' | 'fromAddress'> &
  Partial<Omit<PaymentCreatedData, 'paymentId' | 'merchantId'>> & {
    merchant: Merchant;
    /** Deliver the same payment.created envelope this many times. */
    copies?: number;
  };

type Observed = Record<string, any>;

export interface HarnessOptions {
  registry: ChainRegistry;
  env?: Record<string, string>;
  /** The service's logger (the platform's test kit would give it a silent one). */
  logger?: Logger;
  /** Run on another harness's database and queue prefix: a second replica, or a restart. */
  share?: Backends;
}

/** Fast timings for tests; each test file can override any of them. */
const TEST_ENV: Record<string, string> = {
  VERIFY_POLL_MS: '50',
  VERIFY_MAX_BACKOFF_MS: '200',
  TX_NOT_FOUND_AFTER_MS: '60000',
  RPC_TIMEOUT_MS: '1000',
  SCAN_INTERVAL_MS: '100',
};

const OBSERVED = [
  'wallet.assigned',
  'chain.payment.verified',
  'chain.payment.rejected',
  'chain.payment.relayed',
  'chain.top_up.verified',
  'chain.top_up.rejected',
  // Transfer outcomes are addressed to their requester: `<type>.<purpose>`.
  'transfer.submitted.*',
  'transfer.confirmed.*',
  'transfer.failed.*',
];

type Run = Pick<
  ServiceUnderTest<ChainWatcherConfig, WatcherContext>,
  'url' | 'databaseUrl' | 'amqpUrl' | 'prefix' | 'config' | 'service' | 'close'
>;
type Backends = Pick<Run, 'databaseUrl' | 'amqpUrl' | 'prefix'>;

/**
 * The service on backends that bootService does not provide (another instance's database and queue,
 * or a logger of the test's own), with connections of its own that it closes when it stops.
 */
const startOn = async (
  backends: Backends,
  env: Record<string, string>,
  logger: Logger,
): Promise<Omit<Run, keyof Backends | 'close'>> => {
  const config = chainWatcherService.loadConfig({
    INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    DATABASE_URL: backends.databaseUrl,
    AMQP_URL: backends.amqpUrl,
    AMQP_PREFIX: backends.prefix,
    ...env,
  });
  const db = await createDatabase({ url: backends.databaseUrl, schema: config.DATABASE_SCHEMA, poolMax: 20 });
  const bus = new AmqpBus({ url: backends.amqpUrl, prefix: backends.prefix, logger });
  await bus.connect();
  try {
    const service = await startDefinedService(chainWatcherService, {
      config,
      deps: { db, bus, logger, metrics: createMetrics('chain-watcher', false) },
      port: 0,
      host: '127.0.0.1',
    });
    return { url: service.url, config, service };
  } catch (err) {
    await bus.close();
    await db.destroy();
    throw err;
  }
};

/** A running chain-watcher and the test's own connections to its database and queue, which outlive it. */
const withHelpers = async (run: Run, events: EventObserver) => {
  const db = await createDatabase({ url: run.databaseUrl, schema: run.config.DATABASE_SCHEMA, poolMax: 4 });
  const bus = new AmqpBus({ url: run.amqpUrl, prefix: run.prefix, logger: quietLogger('publisher') });
  await bus.connect();
  const publish = <T extends EventType>(type: T, data: EventDataInput<T>, opts?: PublishOptions) =>
    publishEvent(bus, type, data, opts);
  /** The first observed event that matches, once it arrives. */
  const event = (match: (e: Observed) => boolean, timeoutMs = 15_000) =>
    waitFor(() => events.messages.find(match), timeoutMs, 'event');
  return {
    ...run,
    db,
    bus,
    events,
    call: (path: string, opts?: CallOptions) => callService(run.url, 'GET', path, opts),
    post: (path: string, opts?: CallOptions) => callService(run.url, 'POST', path, opts),
    publish,
    event,
    createMerchant: async (
      blockchain: BlockchainName,
      currencies: Currency[] = ['USDC', 'EURC'],
    ): Promise<Merchant> => {
      const merchantId = randomUUID();
      await publish(EventTypes.MerchantCreated, {
        merchantId,
        publicId: `sp_live_${randomUUID()}`,
        name: 'Test Shop',
        blockchain,
        acceptedCurrencies: currencies,
        email: 'shop@example.test',
      });
      const { data } = await event((e) => e.type === 'wallet.assigned' && e.data.merchantId === merchantId);
      return {
        merchantId,
        walletId: data.walletId,
        address: data.address,
        blockchain,
        chainId: data.chainId,
      };
    },
    publishPayment: async ({ merchant, copies, ...p }: PaymentInput): Promise<string> => {
      const paymentId = randomUUID();
      const data: PaymentCreatedData = {
        paymentId,
        merchantId: merchant.merchantId,
        expectedAmount: p.amount,
        currency: 'USDC',
        chainId: merchant.chainId,
        sourceChain: merchant.blockchain,
        toAddress: merchant.address,
        isCrossChain: false,
        bridgeKit: null,
        feeQuote: null,
        destinationChainId: null,
        sessionId: p.sessionCreatedAt ? `cs_live_${randomUUID()}` : null,
        sessionCreatedAt: null,
        createdAt: new Date().toISOString(),
        ...p,
      };
      await publish(EventTypes.PaymentCreated, data, { times: copies });
      return paymentId;
    },
    /** The verdict event of a payment, once it arrives. */
    verdict: (paymentId: string, timeoutMs = 15_000) =>
      event(
        (e) =>
          (e.type === 'chain.payment.verified' || e.type === 'chain.payment.rejected') &&
          e.data.paymentId === paymentId,
        timeoutMs,
      ),
    metrics: () => scrapeMetrics(run.url),
    close: async (): Promise<void> => {
      await run.service.stop();
      await events.close();
      await bus.close();
      await db.destroy();
      await run.close();
    },
  };
};

export type Harness = Awaited<ReturnType<typeof withHelpers>>;

/** The real service on port 0, on a fresh PostgreSQL database and RabbitMQ prefix, against the devnet. */
export const startHarness = async (opts: HarnessOptions): Promise<Harness> => {
  const env = { WALLET_KEK: KEK, CHAIN_REGISTRY: JSON.stringify(opts.registry), ...TEST_ENV, ...opts.env };
  if (!opts.share && !opts.logger) {
    const sut = await bootService(chainWatcherService, { env });
    return withHelpers(sut, await observeEvents(sut, OBSERVED));
  }
  const fresh = opts.share ? undefined : await createTestDatabase();
  const backends: Backends = opts.share ?? {
    databaseUrl: fresh!.url,
    amqpUrl: await testAmqpUrl(),
    prefix: testQueuePrefix(),
  };
  // Observing first: a replica may publish what the others left in the outbox as soon as it starts.
  const events = await observeEvents(backends, OBSERVED);
  try {
    const started = await startOn(backends, env, opts.logger ?? quietLogger('chain-watcher'));
    const close = async () => {
      await started.service.stop();
      await fresh?.drop();
    };
    return await withHelpers({ ...backends, ...started, close }, events);
  } catch (err) {
    await events.close();
    await fresh?.drop();
    throw err;
  }
};

/** A real service logger at debug level whose formatted lines are kept in memory instead of printed. */
export const capturingLogger = (service: string) => {
  const logger = createLogger({ service, level: 'debug' });
  const lines: string[] = [];
  for (const transport of logger.transports) {
    transport.log = (info: Record<string | symbol, unknown>, done: () => void) => {
      lines.push(String(info[Symbol.for('message')]));
      done();
    };
  }
  return { logger, lines };
};
