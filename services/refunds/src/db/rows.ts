import type { Knex } from 'knex';
import { normalizeDecimal } from '@stablepay/contracts';

/** A row as the driver returns it (pg and PGlite differ in a few types, handled below). */
export type Row = Record<string, unknown>;

export const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
export const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
/** NUMERIC arrives as text from both drivers; normalising keeps the 6-decimal form. */
export const decimal = (v: unknown): string => normalizeDecimal(String(v));
export const decimalOrNull = (v: unknown): string | null =>
  v === null || v === undefined ? null : decimal(v);
export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** A SUM over NUMERIC (text, or null over no rows) in base units. */
export const sumToDecimal = (v: unknown): string => (v === null || v === undefined ? '0.000000' : decimal(v));

export const text = (v: unknown): string => String(v);
/** A column whose values the schema's check constraint (or the code that wrote it) limits to `T`. */
export const oneOf =
  <T extends string>() =>
  (v: unknown): T =>
    v as T;

/** The column kinds a row mapper reads fields as. */
export const column = { text, decimal, decimalOrNull, str, date, dateOrNull, oneOf };

/** How a field is read: from the column named after it in snake_case, or from a column named here. */
export type FieldSource<T> = ((value: unknown) => T) | { column: string; read: (value: unknown) => T };

const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A record type's row mapper, from a table that says how each of its fields is read: every field
 * listed once, every conversion (NUMERIC, timestamps, nulls) done the one way this file does it.
 */
export const rowMapper =
  <T>(fields: { [K in keyof T]-?: FieldSource<T[K]> }) =>
  (r: Row): T =>
    Object.fromEntries(
      Object.entries<FieldSource<unknown>>(fields).map(([field, source]) =>
        typeof source === 'function'
          ? [field, source(r[columnOf(field)])]
          : [field, source.read(r[source.column])],
      ),
    ) as T;

/** The first row `query` finds, mapped; undefined when it finds none. */
export const firstOf = async <T>(query: Knex.QueryBuilder, map: (r: Row) => T): Promise<T | undefined> => {
  const row = (await query.first()) as Row | undefined;
  return row ? map(row) : undefined;
};
