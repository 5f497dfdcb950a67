import type { Knex } from 'knex';

type Row = Record<string, unknown>;

/** Where a state machine's records live. */
export interface TableShape {
  table: string;
  /** 'id' unless given */
  idColumn?: string;
  /** 'status' unless given */
  statusColumn?: string;
  /** Set to now() by every update ('updated_at' unless given); null for a table without one. */
  touchColumn?: string | null;
}

/** A status history table: one row (record, status, when) per status change. */
export interface StatusHistory {
  table: string;
  /** The column naming the record (`payment_id`). */
  recordColumn: string;
  /** 'status' unless given */
  statusColumn?: string;
  /** 'changed_at' unless given; filled from the touch column (now() without one) */
  atColumn?: string;
}

export interface GuardedUpdate {
  /** The statuses the record must be in for the update to apply. */
  from: readonly string[];
  /** The new status; absent when only other columns change. */
  to?: string;
  patch?: Row;
  filter: (q: Knex.QueryBuilder) => void;
  /** Update the first `limit` matching rows instead of every one. */
  batch?: { limit: number; orderBy?: string; skipLocked?: boolean };
}

/**
 * The one guarded statement: `UPDATE … WHERE status IN (from) AND <filter>` returning the rows it
 * changed, so the check and the change are atomic. With a history table, rows whose status changed
 * are recorded by the same statement (a CTE), so history and status never disagree.
 */
export const guardedUpdate = async (
  db: Knex | Knex.Transaction,
  shape: TableShape & { history?: StatusHistory },
  u: GuardedUpdate,
): Promise<Row[]> => {
  if (u.from.length === 0) return [];
  const idColumn = shape.idColumn ?? 'id';
  const statusColumn = shape.statusColumn ?? 'status';
  const touch = shape.touchColumn === undefined ? 'updated_at' : shape.touchColumn;
  const guarded = (q: Knex.QueryBuilder) => q.whereIn(statusColumn, [...u.from]).modify(u.filter);
  const query = guarded(db(shape.table));
  if (u.batch) {
    const pick = guarded(db(shape.table).select(idColumn)).limit(u.batch.limit).forUpdate();
    if (u.batch.orderBy) pick.orderBy(u.batch.orderBy);
    if (u.batch.skipLocked) pick.skipLocked();
    query.whereIn(idColumn, pick);
  }
  const values: Row = { ...u.patch };
  if (u.to !== undefined) values[statusColumn] = u.to;
  if (touch) values[touch] = db.fn.now();
  const update = query.update(values).returning('*');
  const history = shape.history;
  if (!history || u.to === undefined || u.from.every((s) => s === u.to)) return (await update) as Row[];
  const sql = update.toSQL();
  const at = touch ?? 'now()';
  const result = (await db.raw(
    `with moved as (${sql.sql}),
          changed as (insert into ${history.table}
                        (${history.recordColumn}, ${history.statusColumn ?? 'status'}, ${history.atColumn ?? 'changed_at'})
                      select ${idColumn}, ${statusColumn}, ${at} from moved)
     select * from moved`,
    sql.bindings,
  )) as { rows: Row[] };
  return result.rows;
};
