import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { registerRuntimeMetrics } from './runtime-metrics.js';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  handlerWait: Histogram<'queue' | 'type'>;
  handlerDuration: Histogram<'queue' | 'type' | 'outcome'>;
  handlerOutcomes: Counter<'queue' | 'type' | 'outcome'>;
  outboxPublished: Counter<'type'>;
  /**
   * Names what the outbox gauges read at each scrape (the service's relay sets it): rows waiting to
   * be published and the age of the oldest, the lag an operator acts on.
   */
  observeOutbox(probe: () => Promise<OutboxBacklog>): void;
  /** Time a query waited for a connection from the pool (PostgreSQL). */
  poolAcquire: Histogram<string>;
  /** Names what the pool gauge reads at each scrape (set once the database is instrumented). */
  observePool(probe: () => PoolState): void;
  /** Per request: time in the database, waiting for a connection, and in calls to other services. */
  requestStage: Histogram<'route' | 'stage'>;
}

export interface PoolState {
  pendingAcquires: number;
  used: number;
  free: number;
}

export interface OutboxBacklog {
  waiting: number;
  oldestSeconds: number;
}

/** The pool's queue and occupancy, read at each scrape once a database is instrumented. */
const poolGauges = (registry: Registry, read: () => PoolState | undefined): void => {
  new Gauge({
    name: 'db_pool_pending_acquires',
    help: 'Queries waiting for a connection from the database pool',
    registers: [registry],
    collect() {
      const p = read();
      if (p) this.set(p.pendingAcquires);
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections in use and idle',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const p = read();
      if (!p) return;
      this.set({ state: 'used' }, p.used);
      this.set({ state: 'free' }, p.free);
    },
  });
};

/** The outbox's backlog, read at each scrape through the probe the service's relay names. */
const outboxGauges = (registry: Registry, probe: () => (() => Promise<OutboxBacklog>) | undefined): void => {
  // A failed probe (database away) leaves the gauge out of the scrape rather than failing it.
  const backlog = async (): Promise<OutboxBacklog | undefined> => probe()?.().catch(() => undefined);
  new Gauge({
    name: 'outbox_waiting_events',
    help: 'Outbox events written and not yet published',
    registers: [registry],
    async collect() {
      const b = await backlog();
      if (b) this.set(b.waiting);
    },
  });
  new Gauge({
    name: 'outbox_oldest_waiting_seconds',
    help: 'Age of the oldest outbox event not yet published (0 when none waits)',
    registers: [registry],
    async collect() {
      const b = await backlog();
      if (b) this.set(b.oldestSeconds);
    },
  });
};

/** One registry per service instance, so tests can run several services in one process. */
export const createMetrics = (service: string, withDefaults = true): Metrics => {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (withDefaults) {
    collectDefaultMetrics({ register: registry });
    registerRuntimeMetrics(registry, {
      eventLoopDelay: { name: 'nodejs_eventloop_delay_seconds' },
      // prom-client's own, replaced by one that counts every pause.
      gcPauses: { name: 'nodejs_gc_duration_seconds' },
    });
  }
  let poolProbe: (() => PoolState) | undefined;
  poolGauges(registry, () => poolProbe?.());
  let outboxProbe: (() => Promise<OutboxBacklog>) | undefined;
  outboxGauges(registry, () => outboxProbe);
  return {
    observeOutbox: (probe) => {
      outboxProbe = probe;
    },
    observePool: (probe) => {
      poolProbe = probe;
    },
    poolAcquire: new Histogram({
      name: 'db_pool_acquire_seconds',
      help: 'Time a query waited for a database connection from the pool',
      buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    requestStage: new Histogram({
      name: 'http_request_stage_seconds',
      help: 'Per request and route: time in database queries (db), waiting for a pooled connection (pool), in calls to other services until their answer began (upstream), and before the first such call (before_upstream)',
      labelNames: ['route', 'stage'],
      buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    handlerWait: new Histogram({
      name: 'message_wait_seconds',
      help: 'Time from event occurrence to handler start',
      labelNames: ['queue', 'type'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600],
      registers: [registry],
    }),
    handlerDuration: new Histogram({
      name: 'message_handler_duration_seconds',
      help: 'Message handler processing time by outcome',
      labelNames: ['queue', 'type', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    }),
    handlerOutcomes: new Counter({
      name: 'messages_handled_total',
      help: 'Messages handled by outcome (ok, duplicate, retry, dead_letter)',
      labelNames: ['queue', 'type', 'outcome'],
      registers: [registry],
    }),
    outboxPublished: new Counter({
      name: 'outbox_published_total',
      help: 'Outbox events published to the broker',
      labelNames: ['type'],
      registers: [registry],
    }),
  };
};
