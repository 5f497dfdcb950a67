import type { Knex } from 'knex';

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
