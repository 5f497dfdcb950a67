import type { Knex } from 'knex';
import type { HttpApp, ReadinessCheck } from './http/app.js';
import { pingDatabase } from './db/database.js';
import { instrumentDatabase } from './db/instrument.js';
import { listen, type RunningServer } from './http/server.js';
import { shutdownInOrder, type ShutdownStep } from './lifecycle.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { AmqpBus } from './messaging/amqp-bus.js';
import type { EventBus } from './messaging/bus.js';
import { InProcessBus } from './messaging/in-process-bus.js';

/** What every service is built from; passed explicitly, never held in module state. */
export interface ServiceDeps {
  logger: Logger;
  metrics: Metrics;
  db: Knex;
  bus: EventBus;
}

/** A background loop of a service (outbox relay, expiry sweeper, scanner). */
export interface Worker {
  name: string;
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

export interface RunningService {
  name: string;
  url: string;
  port: number;
  server: RunningServer;
  stop(): Promise<void>;
}

/** The readiness checks every service has: a real query and a broker round trip. */
export const dependencyChecks = (deps: Pick<ServiceDeps, 'db' | 'bus'>): ReadinessCheck[] => [
  { name: 'database', check: () => pingDatabase(deps.db) },
  { name: 'bus', check: () => deps.bus.check() },
];

export const createBus = async (opts: {
  url?: string;
  prefix?: string;
  logger: Logger;
}): Promise<EventBus> => {
  if (!opts.url) return new InProcessBus();
  const bus = new AmqpBus({ url: opts.url, prefix: opts.prefix, logger: opts.logger });
  await bus.connect();
  return bus;
};

export interface StartServiceOptions {
  name: string;
  deps: ServiceDeps;
  http: HttpApp;
  port: number;
  host?: string;
  workers?: Worker[];
  /** Register the service's message handlers (after the server listens). */
  subscribe?: () => Promise<void>;
  /** Close the bus and the database on stop (false when a stack shares them). */
  ownsConnections?: boolean;
  graceMs?: number;
  /** Runs once the server has closed (forget keys, close outbound clients). */
  afterClose?: () => Promise<void> | void;
}

/**
 * Starts a service and returns its handle; `stop` is the one ordered shutdown: not ready → stop
 * consumers → stop workers → close the server after in-flight requests → disconnect.
 */
export const startService = async (opts: StartServiceOptions): Promise<RunningService> => {
  const { deps, http } = opts;
  instrumentDatabase(deps.db, deps.metrics);
  http.finalize();
  const server = await listen(http.app, opts.port, opts.host);
  for (const w of opts.workers ?? []) await w.start();
  if (opts.subscribe) await opts.subscribe();
  deps.logger.info('service started', { url: server.url });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const steps: ShutdownStep[] = [
        { name: 'not ready', run: () => http.markNotReady() },
        { name: 'stop consumers', run: () => deps.bus.stopConsuming() },
        ...(opts.workers ?? []).map((w) => ({ name: `stop ${w.name}`, run: () => w.stop() })),
        { name: 'close server', run: () => server.close() },
      ];
      if (opts.afterClose) steps.push({ name: 'release', run: opts.afterClose });
      if (opts.ownsConnections ?? true) {
        steps.push({ name: 'close bus', run: () => deps.bus.close() });
        steps.push({ name: 'close database', run: () => deps.db.destroy() });
      }
      await shutdownInOrder(steps, deps.logger, opts.graceMs);
      deps.logger.info('service stopped');
    })());
  return { name: opts.name, url: server.url, port: server.port, server, stop };
};
