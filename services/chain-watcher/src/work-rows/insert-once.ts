import type { Knex } from 'knex';
import { currentContext } from '@stablepay/platform';

/**
 * Inserts `row` unless one with the same natural key (`conflict`) exists, in one statement: a
 * redelivered message finds its row and changes nothing. True when this call inserted it.
 */
export const insertOnce = async (
  trx: Knex.Transaction,
  table: string,
  row: Record<string, unknown>,
  conflict: string[],
  returning: string,
): Promise<boolean> => {
  const rows = await trx(table).insert(row).onConflict(conflict).ignore().returning(returning);
  return rows.length === 1;
};

/**
 * A work row the message being handled starts (a payment or top-up to follow), inserted once per
 * `key` (see insertOnce) with that message's correlation id, which the row's later events carry on.
 */
export const insertWorkRowOnce = (
  trx: Knex.Transaction,
  table: string,
  row: Record<string, unknown>,
  key: string,
): Promise<boolean> =>
  insertOnce(trx, table, { ...row, correlation_id: currentContext().correlationId ?? null }, [key], key);
