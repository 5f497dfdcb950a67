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

const columnName = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The named fields of a new row under their column names (a field's snake_case), ready to insert: an
 * amount (bigint) as its decimal string, an optional field that is absent as null. Only the named
 * fields are written, whatever else the value carries.
 */
export const asColumns = <T extends object>(fields: T, names: readonly (keyof T & string)[]) =>
  Object.fromEntries(
    names.map((name) => {
      const value = fields[name];
      return [columnName(name), typeof value === 'bigint' ? value.toString() : (value ?? null)];
    }),
  );
