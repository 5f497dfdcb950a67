import {
  OutboxRelay,
  createHttpApp,
  migrate,
  requireInternalToken,
  startService,
  subscribeEvents,
  type HttpApp,
  type RunningService,
  type ServiceDeps,
  type Worker,
  dependencyChecks,
} from '@stablepay/platform';
import { ChainWatcherClient, type BalanceSource } from './clients/chain-watcher.js';
import type { RefundsConfig } from './config.js';
import { refundsMigrations } from './db/migrations.js';
import type { RefundsContext } from './domain/context.js';
import { refundsRouter } from './http/refunds/router.js';
import { paymentProjectionHandlers } from './messaging/payment-handlers.js';
import { transferHandlers } from './messaging/transfer-handlers.js';
import { dispatcherWorker } from './workers/dispatcher.js';

export const SERVICE_NAME = 'refunds';

export interface RefundsService {
  http: HttpApp;
  workers: Worker[];
  subscribe: () => Promise<void>;
  /** The wiring, for tests that drive the domain directly. */
  context: RefundsContext;
}

export interface BuildRefundsOptions {
  config: RefundsConfig;
  deps: ServiceDeps;
  /** Where merchant wallet balances come from; the chain-watcher's internal API by default. */
  balances?: BalanceSource;
}

/** Migrates the database, then wires the HTTP app, the background workers and the subscriptions. */
export async function buildRefundsService(opts: BuildRefundsOptions): Promise<RefundsService> {
  const { config, deps } = opts;
  const { db, bus, logger, metrics } = deps;
  await migrate(db, config.DATABASE_SCHEMA, refundsMigrations);

  const relay = new OutboxRelay({ db, bus, logger, metrics });
  const context: RefundsContext = {
    db,
    logger,
    refundWindowDays: config.REFUND_WINDOW_DAYS,
    now: () => new Date(),
    eventsCommitted: () => relay.wake(),
  };
  const balances =
    opts.balances ??
    new ChainWatcherClient({
      baseUrl: config.CHAIN_WATCHER_URL,
      internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
      timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
    });

  const http = createHttpApp({
    service: SERVICE_NAME,
    logger,
    metrics,
    readiness: dependencyChecks(deps),
  });
  http.app.use(requireInternalToken(config.INTERNAL_TOKEN_SECRET));
  http.app.use(refundsRouter(context));

  const workers: Worker[] = [
    relay,
    dispatcherWorker(context, balances, {
      holdSeconds: config.REFUND_HOLD_SECONDS,
      pollMs: config.DISPATCH_POLL_MS,
      leaseMs: Math.max(60_000, config.CHAIN_WATCHER_TIMEOUT_MS * 4),
    }),
  ];
  const subscribe = () =>
    subscribeEvents({
      bus,
      db,
      consumer: SERVICE_NAME,
      handlers: { ...paymentProjectionHandlers(logger), ...transferHandlers(logger) },
      afterCommit: context.eventsCommitted,
      logger,
      metrics,
    });
  return { http, workers, subscribe, context };
}

export async function startRefundsService(opts: {
  config: RefundsConfig;
  deps: ServiceDeps;
  balances?: BalanceSource;
  port?: number;
  host?: string;
  /** false when a stack shares the bus and the database with other services */
  ownsConnections?: boolean;
}): Promise<RunningService> {
  const { config, deps } = opts;
  const service = await buildRefundsService({ config, deps, balances: opts.balances });
  return startService({
    name: SERVICE_NAME,
    deps,
    http: service.http,
    port: opts.port ?? config.PORT,
    host: opts.host ?? config.HOST,
    workers: service.workers,
    subscribe: service.subscribe,
    ownsConnections: opts.ownsConnections,
    graceMs: config.SHUTDOWN_GRACE_MS,
  });
}
