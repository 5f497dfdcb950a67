import type { Knex } from 'knex';
import { preparedRaw } from './prepared.js';

export interface LeaseRowsOptions {
  table: string;
  /** The column the rows are claimed by; `id` unless given. */
  key?: string;
  /** The timestamp column holding the lease; `locked_until` unless given. */
  leaseColumn?: string;
  /** SQL condition of the rows waiting for work (the lease is checked besides). */
  open: string;
  /** Further SQL assignments made with the lease. */
  alsoSet?: string;
  /** SQL order in which waiting rows are taken. */
  orderBy: string;
  /** SQL list of what the claimed rows return. */
  returning: string;
  limit: number;
  leaseMs: number;
  /**
   * The open rows are found through a partial index in `orderBy`'s order (`... where <open>`) that
   * rows leave all day long (the outbox's published rows): walk that index in order. See
   * `walkingTheIndex`.
   */
  walkIndex?: boolean;
}

/** The knex client is node-postgres, which sends a statement without values in one simple query. */
const onNodePostgres = (db: Knex): boolean =>
  (db.client as { config: { client?: unknown } }).config.client === 'pg';

/**
 * A row that leaves the open state leaves its entry behind in the partial index until VACUUM, and
 * on a table that keeps its closed rows (the outbox keeps published rows for days) VACUUM comes
 * rarely. The planner, knowing few rows are open, takes a bitmap scan: it reads every dead entry
 * and visits its heap page on every lease, so each lease costs more than the last. An ordered walk
 * of the index marks the dead entries it passes, and the next walk skips them without the heap. The
 * planner is told so for this one statement (SET LOCAL in the statement's own implicit
 * transaction: one round trip); the values go into the text, as the simple protocol has no
 * parameters, and are integers checked here.
 */
const walkingTheIndex = (opts: LeaseRowsOptions): string => {
  if (!Number.isSafeInteger(opts.leaseMs) || !Number.isSafeInteger(opts.limit)) {
    throw new Error('leaseRows: leaseMs and limit must be integers');
  }
  return `set local enable_bitmapscan = off; set local enable_seqscan = off;
    ${leaseStatement(opts, String(opts.leaseMs), String(opts.limit))}`;
};

/** The lease's UPDATE, with `leaseMs` and `limit` as given (placeholders or literals). */
const leaseStatement = (opts: LeaseRowsOptions, leaseMs: string, limit: string): string => {
  const key = opts.key ?? 'id';
  const lease = opts.leaseColumn ?? 'locked_until';
  return `update ${opts.table}
        set ${lease} = now() + (${leaseMs} * interval '1 millisecond')${opts.alsoSet ? `, ${opts.alsoSet}` : ''}
      where ${key} in (
        select ${key} from ${opts.table}
         where ${opts.open}
           and (${lease} is null or ${lease} < now())
         order by ${opts.orderBy}
         limit ${limit}
         for update skip locked)
      returning ${opts.returning}`;
};

/**
 * Leases up to `limit` waiting rows of `table` to the caller. SKIP LOCKED lets replicas claim side by
 * side without waiting on each other, and the lease keeps a row away from everyone else while the
 * work is done, with no transaction open across it. A worker that dies simply lets its lease run out.
 * The rows come back in the database's order, not necessarily `orderBy`'s. Workers lease on every
 * poll, so the statement is prepared once per connection (preparedRaw), unless it walks the index.
 */
export const leaseRows = async <Row>(db: Knex, opts: LeaseRowsOptions): Promise<Row[]> => {
  if (opts.walkIndex && onNodePostgres(db)) {
    // One result per statement of the text; the rows are the last one's.
    const results = (await db.raw(walkingTheIndex(opts))) as Array<{ rows: Row[] }>;
    return results.at(-1)!.rows;
  }
  const result = await preparedRaw<{ rows: Row[] }>(db, leaseStatement(opts, '?', '?'), [
    opts.leaseMs,
    opts.limit,
  ]);
  return result.rows;
};
