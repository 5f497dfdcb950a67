import type { RequestHandler } from 'express';
import type { IntegrationEvent, OwningService, RouteSpec, TransferPurpose } from '@stablepay/contracts';
import type { BaseServiceConfig, ServiceRole } from './config.js';
import { migrate, type Migration } from './db/database.js';
import { createHttpApp, type ReadinessCheck } from './http/app.js';
import type { TrustProxy } from './http/trusted-proxies.js';
import { mountRoutes, type RouteHandlers } from './http/routes.js';
import { internalTokenSecrets, requireInternalToken } from './auth/internal-token.js';
import { subscribeEvents, type EventHandlers } from './messaging/consumer.js';
import { OutboxRelay } from './messaging/outbox.js';
import {
  dependencyChecks,
  startService,
  type RunningService,
  type ServiceDeps,
  type Worker,
} from './service.js';

/** What a service's `build` gets: its validated configuration and its connections. */
export interface ServiceKit<C extends BaseServiceConfig> {
  config: C;
  deps: ServiceDeps;
  role: ServiceRole;
  /** Wakes the outbox relay: call after a transaction that wrote events commits. */
  eventsCommitted: () => void;
}

/** The parts a service is made of; `startDefinedService` runs the ones its role needs. */
export interface ServiceParts<S extends OwningService, X> {
  /** One handler per catalogue route the service owns. */
  routes?: RouteHandlers<S>;
  /** Mounted before the JSON parser and the routes (the gateway's own router). */
  beforeBody?: RequestHandler[];
  /** Event handlers, one per consumed event type (worker role). */
  consumers?: EventHandlers;
  /** The transfer purpose whose outcomes are addressed to this service. */
  addressedAs?: TransferPurpose;
  /** Background work (worker role). */
  workers?: Worker[];
  /** Runs after a consumed event's transaction commits, besides waking the relay; given the event. */
  afterConsume?: (event: IntegrationEvent) => void;
  readiness?: ReadinessCheck[];
  /** Last step of the shutdown, after workers and the server stopped (forget keys, close clients). */
  close?: () => Promise<void> | void;
  /** The service's wiring, for tests and benchmarks that drive its domain directly. */
  context: X;
}

export interface ServiceDefinition<S extends OwningService, C extends BaseServiceConfig, X, O = object> {
  name: S;
  migrations: Migration[];
  loadConfig: (env?: Record<string, string | undefined>) => C;
  /** false for a service that publishes nothing (no outbox table, no relay). */
  publishes?: boolean;
  /** false when the service authenticates callers itself (the gateway) instead of by internal token. */
  internalToken?: boolean;
  http?: { bodyLimit?: string; trustProxy?: (config: C) => TrustProxy };
  /** The routes to serve instead of the contracts' catalogue (tests of the platform itself). */
  catalogue?: readonly RouteSpec[];
  build: (kit: ServiceKit<C>, options: O) => Promise<ServiceParts<S, X>> | ServiceParts<S, X>;
}

/** Declares a service; the type parameters follow from the object. */
export const defineService = <S extends OwningService, C extends BaseServiceConfig, X, O = object>(
  definition: ServiceDefinition<S, C, X, O>,
): ServiceDefinition<S, C, X, O> => definition;

export interface StartOptions<C, O> {
  config: C;
  deps: ServiceDeps;
  port?: number;
  host?: string;
  role?: ServiceRole;
  /** false when a stack shares the bus and the database with other services */
  ownsConnections?: boolean;
  /** Service-specific options (a custody signer, a balance source). */
  options?: O;
}

export type RunningDefinedService<X> = RunningService & { context: X; role: ServiceRole };

/**
 * Starts a service by its definition: migrations, outbox relay, HTTP app with readiness and the
 * catalogue's routes (api role), consumers and workers (worker role), and one ordered shutdown.
 */
export const startDefinedService = async <S extends OwningService, C extends BaseServiceConfig, X, O>(
  definition: ServiceDefinition<S, C, X, O>,
  opts: StartOptions<C, O>,
): Promise<RunningDefinedService<X>> => {
  const { config, deps } = opts;
  const role = opts.role ?? config.SERVICE_ROLE;
  await migrate(deps.db, config.DATABASE_SCHEMA, definition.migrations);
  const publishes = definition.publishes ?? true;
  const relay = publishes
    ? new OutboxRelay({ db: deps.db, bus: deps.bus, logger: deps.logger, metrics: deps.metrics })
    : undefined;
  const eventsCommitted = () => relay?.wake();
  const parts = await definition.build({ config, deps, role, eventsCommitted }, (opts.options ?? {}) as O);

  const serveApi = role !== 'worker';
  const runWorkers = role !== 'api';
  const http = createHttpApp({
    service: definition.name,
    logger: deps.logger,
    metrics: deps.metrics,
    readiness: [...dependencyChecks(deps), ...(parts.readiness ?? [])],
    bodyLimit: definition.http?.bodyLimit,
    trustProxy: definition.http?.trustProxy?.(config),
    metricsToken: config.METRICS_TOKEN,
    // A service that authenticates callers itself faces the public (the gateway).
    serverTiming: (definition.internalToken ?? true) ? 'all' : 'proxied',
    beforeBody: serveApi ? parts.beforeBody : undefined,
  });
  if (serveApi && parts.routes) {
    if (definition.internalToken ?? true) http.app.use(requireInternalToken(internalTokenSecrets(config)));
    mountRoutes(http.app, definition.name, parts.routes, definition.catalogue);
  }

  const workers: Worker[] = [...(runWorkers ? (parts.workers ?? []) : []), ...(relay ? [relay] : [])];
  const consumers = runWorkers ? parts.consumers : undefined;
  const subscribe =
    consumers && Object.keys(consumers).length > 0
      ? () =>
          subscribeEvents({
            bus: deps.bus,
            db: deps.db,
            consumer: definition.name,
            handlers: consumers,
            addressedAs: parts.addressedAs,
            logger: deps.logger,
            metrics: deps.metrics,
            afterCommit: (event) => {
              eventsCommitted();
              parts.afterConsume?.(event);
            },
          })
      : undefined;
  const running = await startService({
    name: definition.name,
    deps,
    http,
    port: opts.port ?? config.PORT,
    host: opts.host ?? config.HOST,
    workers,
    subscribe,
    ownsConnections: opts.ownsConnections,
    graceMs: config.SHUTDOWN_GRACE_MS,
    afterClose: parts.close,
  });
  return { ...running, context: parts.context, role };
};
