import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { currentTiming, type RequestTiming } from '../http/server-timing.js';
import type { Metrics } from '../metrics.js';

/** The part of tarn's pool (knex's) that is read: its documented events and counters. */
interface TarnPool {
  on(event: 'acquireRequest', listener: (eventId: number) => void): void;
  on(event: 'acquireSuccess' | 'acquireFail', listener: (eventId: number) => void): void;
  numPendingAcquires(): number;
  numUsed(): number;
  numFree(): number;
}

interface QueryEvent {
  __knexQueryUid?: string;
}

type Started = { at: number; timing: RequestTiming | undefined };

// A database's events are timed once, however many times a service is started on it (tests).
const instrumented = new WeakSet<Knex>();

/**
 * Pool waits: how long each acquire waited (all of them, into the histogram, and the current
 * request's share), and the pool's queue and occupancy at each scrape. The embedded database
 * (PGlite) has no such pool and is left alone.
 */
const instrumentPool = (db: Knex, metrics: Metrics): void => {
  const pool = (db.client as { pool?: Partial<TarnPool> }).pool;
  if (typeof pool?.on !== 'function' || typeof pool.numPendingAcquires !== 'function') return;
  const tarn = pool as TarnPool;
  const waiting = new Map<number, Started>();
  tarn.on('acquireRequest', (id) => waiting.set(id, { at: performance.now(), timing: currentTiming() }));
  const acquired = (id: number) => {
    const started = waiting.get(id);
    if (!started) return;
    waiting.delete(id);
    const ms = performance.now() - started.at;
    metrics.poolAcquire.observe(ms / 1000);
    started.timing?.add('pool', ms);
  };
  tarn.on('acquireSuccess', acquired);
  tarn.on('acquireFail', acquired);
  metrics.observePool(() => ({
    pendingAcquires: tarn.numPendingAcquires(),
    used: tarn.numUsed(),
    free: tarn.numFree(),
  }));
};

/**
 * Each query's time, from sending it to its answer, added to the request that ran it. knex reports
 * an answer only for the statements its builder and `raw` run: a transaction's BEGIN and COMMIT are
 * not in it (their time shows as the request's own, in `app`).
 */
const instrumentQueries = (db: Knex): void => {
  const running = new Map<string, Started>();
  db.on('query', (query: QueryEvent) => {
    const timing = currentTiming();
    if (timing && query.__knexQueryUid) running.set(query.__knexQueryUid, { at: performance.now(), timing });
  });
  const answered = (query: QueryEvent | undefined) => {
    const uid = query?.__knexQueryUid;
    const started = uid === undefined ? undefined : running.get(uid);
    if (!started) return;
    running.delete(uid!);
    started.timing?.add('db', performance.now() - started.at);
  };
  db.on('query-response', (_response: unknown, query: QueryEvent) => answered(query));
  db.on('query-error', (_error: unknown, query: QueryEvent) => answered(query));
};

/** Connects a service's database to its metrics and to the per-request Server-Timing. */
export const instrumentDatabase = (db: Knex, metrics: Metrics): void => {
  if (instrumented.has(db)) return;
  instrumented.add(db);
  instrumentPool(db, metrics);
  instrumentQueries(db);
};
