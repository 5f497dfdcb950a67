import type { Knex } from 'knex';

/**
 * Open rows of `table` that nobody has touched for `staleMs` and that nobody holds are made due at
 * once. Capped back-off already brings every row back; this catches whatever slipped through (a
 * clock jump, a row edited by hand, a lease set far ahead, a worker that died holding one).
 * Returns how many.
 */
export const recoverStaleRows = async (
  db: Knex,
  opts: {
    table: string;
    key: string;
    /** SQL condition of the rows still open */
    open: string;
    /** SQL expression of when a row was last touched */
    touchedAt: string;
    staleMs: number;
  },
): Promise<number> => {
  const result = (await db.raw(
    `update ${opts.table}
        set next_check_at = now(), locked_until = null, backoff_step = 0, updated_at = now()
      where ${opts.open}
        and ${opts.touchedAt} < now() - (? * interval '1 millisecond')
        and next_check_at > now()
        and (locked_until is null or locked_until < now())
      returning ${opts.key}`,
    [opts.staleMs],
  )) as { rows: unknown[] };
  return result.rows.length;
};
