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
import type { PaymentsConfig } from './config.js';
import { paymentsMigrations } from './db/migrations.js';
import { createChainDirectory } from './domain/chains.js';
import type { PaymentsContext } from './domain/context.js';
import { checkoutRouter } from './http/checkout/router.js';
import { paymentsRouter } from './http/payments/router.js';
import { verificationHandlers } from './messaging/verification-handlers.js';
import { merchantProjectionHandlers } from './messaging/merchant-handlers.js';
import { checkoutExpiryWorker } from './workers/checkout-expiry.js';

export const SERVICE_NAME = 'payments';

export interface PaymentsService {
  http: HttpApp;
  workers: Worker[];
  subscribe: () => Promise<void>;
}

/** Migrates the database, then wires the HTTP app, the background workers and the subscriptions. */
export async function buildPaymentsService(opts: {
  config: PaymentsConfig;
  deps: ServiceDeps;
}): Promise<PaymentsService> {
  const { config, deps } = opts;
  const { db, bus, logger, metrics } = deps;
  await migrate(db, config.DATABASE_SCHEMA, paymentsMigrations);

  const relay = new OutboxRelay({ db, bus, logger, metrics });
  const ctx: PaymentsContext = {
    db,
    chains: createChainDirectory(config.EXTRA_CHAINS),
    checkoutUrl: config.CHECKOUT_URL,
    sessionIdPrefix: `cs_${config.ENVIRONMENT}_`,
    allowInsecureUrls: config.ALLOW_INSECURE_URLS,
    eventsCommitted: () => relay.wake(),
  };

  const http = createHttpApp({
    service: SERVICE_NAME,
    logger,
    metrics,
    readiness: dependencyChecks(deps),
  });
  http.app.use(requireInternalToken(config.INTERNAL_TOKEN_SECRET));
  http.app.use(paymentsRouter(ctx));
  http.app.use(checkoutRouter(ctx));

  const workers: Worker[] = [
    relay,
    checkoutExpiryWorker(ctx, { intervalMs: config.CHECKOUT_EXPIRY_SWEEP_MS, logger }),
  ];
  const subscribe = () =>
    subscribeEvents({
      bus,
      db,
      consumer: SERVICE_NAME,
      handlers: { ...merchantProjectionHandlers(), ...verificationHandlers(logger) },
      afterCommit: ctx.eventsCommitted,
      logger,
      metrics,
    });
  return { http, workers, subscribe };
}

export async function startPaymentsService(opts: {
  config: PaymentsConfig;
  deps: ServiceDeps;
  port?: number;
  host?: string;
  /** false when a stack shares the bus and the database with other services */
  ownsConnections?: boolean;
}): Promise<RunningService> {
  const { config, deps } = opts;
  const service = await buildPaymentsService({ config, deps });
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
