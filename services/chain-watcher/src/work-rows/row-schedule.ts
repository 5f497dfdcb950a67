import type { Knex } from 'knex';

/** Where a worker's rows live: the table and the column that names one. */
export interface WorkTable {
  table: string;
  key: string;
}

/** The leases of rows a worker took but did not look at (a shutdown): they are due again at once. */
export const releaseRowLeases = async (db: Knex, w: WorkTable, ids: string[]): Promise<void> => {
  if (ids.length === 0) return;
  await db(w.table).whereIn(w.key, ids).update({ locked_until: null });
};

/**
 * The leases of rows a worker is still working on, extended to `leaseMs` from now. A lease that ran
 * out is not renewed: another replica may hold the row by now.
 */
export const renewRowLeases = async (db: Knex, w: WorkTable, ids: string[], leaseMs: number) => {
  if (ids.length === 0) return;
  await db(w.table)
    .whereIn(w.key, ids)
    .where('locked_until', '>', db.fn.now())
    .update({ locked_until: db.raw(`now() + (? * interval '1 millisecond')`, [leaseMs]) });
};

/** Look at the row again after `delayMs`; its lease ends. */
export const rescheduleRow = async (
  db: Knex,
  w: WorkTable,
  id: string,
  r: { delayMs: number; backoffStep: number },
): Promise<void> => {
  await db(w.table)
    .where({ [w.key]: id })
    .update({
      next_check_at: db.raw(`now() + (? * interval '1 millisecond')`, [r.delayMs]),
      backoff_step: r.backoffStep,
      locked_until: null,
      updated_at: db.fn.now(),
    });
};
