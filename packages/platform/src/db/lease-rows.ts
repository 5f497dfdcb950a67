import type { Knex } from 'knex';

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
}

/**
 * Leases up to `limit` waiting rows of `table` to the caller. SKIP LOCKED lets replicas claim side by
 * side without waiting on each other, and the lease keeps a row away from everyone else while the
 * work is done, with no transaction open across it. A worker that dies simply lets its lease run out.
 * The rows come back in the database's order, not necessarily `orderBy`'s.
 */
export const leaseRows = async <Row>(db: Knex, opts: LeaseRowsOptions): Promise<Row[]> => {
  const key = opts.key ?? 'id';
  const lease = opts.leaseColumn ?? 'locked_until';
  const result = (await db.raw(
    `update ${opts.table}
        set ${lease} = now() + (? * interval '1 millisecond')${opts.alsoSet ? `, ${opts.alsoSet}` : ''}
      where ${key} in (
        select ${key} from ${opts.table}
         where ${opts.open}
           and (${lease} is null or ${lease} < now())
         order by ${opts.orderBy}
         limit ?
         for update skip locked)
      returning ${opts.returning}`,
    [opts.leaseMs, opts.limit],
  )) as { rows: Row[] };
  return result.rows;
};
