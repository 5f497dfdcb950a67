import type { Knex } from 'knex';

/**
 * Leases up to `limit` due rows of `table` to the caller. SKIP LOCKED lets replicas claim side by
 * side without waiting on each other, and the lease keeps a row away from everyone else while the
 * chain is asked about it, with no transaction open across those calls. A worker that dies simply
 * lets its lease run out.
 */
export const leaseDueRows = async <Row>(
  db: Knex,
  opts: {
    table: string;
    key: string;
    /** SQL condition of the rows still open */
    open: string;
    /** further SQL assignments made with the lease */
    alsoSet?: string;
    limit: number;
    leaseMs: number;
  },
): Promise<Row[]> => {
  const result = (await db.raw(
    `update ${opts.table}
        set locked_until = now() + (? * interval '1 millisecond')${opts.alsoSet ? `, ${opts.alsoSet}` : ''}
      where ${opts.key} in (
        select ${opts.key} from ${opts.table}
         where ${opts.open} and next_check_at <= now()
           and (locked_until is null or locked_until < now())
         order by next_check_at
         limit ?
         for update skip locked)
      returning *`,
    [opts.leaseMs, opts.limit],
  )) as { rows: Row[] };
  return result.rows;
};
