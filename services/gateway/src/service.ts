import {
  OutboxRelay,
  createHttpApp,
  migrate,
  startService,
  subscribeEvents,
  type HttpApp,
  type RunningService,
  type ServiceDeps,
  type Worker,
  dependencyChecks,
} from '@stablepay/platform';
import type { GatewayConfig } from './config.js';
import { createMaintenanceWorker } from './db/maintenance.js';
import { gatewayMigrations } from './db/migrations.js';
import { createDecoyHash } from './domain/passwords.js';
import type { GatewayContext } from './gateway-context.js';
import { buildGatewayRouter } from './http/router.js';
import { gatewayEventHandlers } from './messaging/wallet-assigned.js';
import { createUpstreams } from './proxy/upstreams.js';

export const SERVICE_NAME = 'gateway';

export interface GatewayServiceOptions {
  config: GatewayConfig;
  deps: ServiceDeps;
}

export interface GatewayService {
  http: HttpApp;
  workers: Worker[];
  /** Registers the gateway's event consumers (call once the server listens). */
  subscribe: () => Promise<void>;
}

/** Migrates the gateway's schema, then assembles its HTTP app, workers and subscriptions. */
export const buildGatewayService = async ({
  config,
  deps,
}: GatewayServiceOptions): Promise<GatewayService> => {
  const { db, bus, logger, metrics } = deps;
  await migrate(db, config.DATABASE_SCHEMA, gatewayMigrations);

  const relay = new OutboxRelay({ db, bus, logger, metrics });
  const ctx: GatewayContext = {
    config,
    db,
    logger,
    metrics,
    eventsCommitted: () => relay.wake(),
    decoyPasswordHash: createDecoyHash(config.SCRYPT_COST),
  };
  // Made now, so the first login naming an unknown account costs no more than any other.
  ctx
    .decoyPasswordHash()
    .catch((err: unknown) => logger.warn('could not prepare the decoy password hash', { err }));
  const http = createHttpApp({
    service: SERVICE_NAME,
    logger,
    metrics,
    trustProxy: config.TRUST_PROXY,
    readiness: dependencyChecks(deps),
    beforeBody: [buildGatewayRouter(ctx, createUpstreams(config))],
  });
  const workers: Worker[] = [relay, createMaintenanceWorker(db, logger)];
  const subscribe = () =>
    subscribeEvents({ bus, db, consumer: SERVICE_NAME, handlers: gatewayEventHandlers, logger, metrics });
  return { http, workers, subscribe };
};

export interface StartGatewayOptions extends GatewayServiceOptions {
  port?: number;
  host?: string;
  /** Close the bus and the database on stop (false when a stack shares them). */
  ownsConnections?: boolean;
}

export const startGatewayService = async (opts: StartGatewayOptions): Promise<RunningService> => {
  const { config, deps } = opts;
  const built = await buildGatewayService({ config, deps });
  return startService({
    name: SERVICE_NAME,
    deps,
    http: built.http,
    port: opts.port ?? config.PORT,
    host: opts.host ?? config.HOST,
    workers: built.workers,
    subscribe: built.subscribe,
    ownsConnections: opts.ownsConnections,
    graceMs: config.SHUTDOWN_GRACE_MS,
  });
};
