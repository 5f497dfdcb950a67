import type { Knex } from 'knex';
import { baseUnitsToDecimal, decimalToBaseUnits, normalizeDecimal } from '@stablepay/contracts';

/** A row as the driver returns it (pg and PGlite differ in a few types, handled below). */
export type Row = Record<string, unknown>;

export const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
export const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
/** NUMERIC arrives as text from both drivers; normalising keeps the 6-decimal form. */
export const decimal = (v: unknown): string => normalizeDecimal(String(v));
export const cents = (v: unknown): string => baseUnitsToDecimal(decimalToBaseUnits(String(v), 2), 2);
export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** A SUM over NUMERIC (text, or null over no rows). */
export const sumToDecimal = (v: unknown): string => (v === null || v === undefined ? '0.000000' : decimal(v));

export const text = (v: unknown): string => String(v);
export const int = (v: unknown): number => Number(v);
/** A boolean column: true only for true (a null is false). */
export const flag = (v: unknown): boolean => v === true;
/** A column whose values the schema's check constraint (or the code that wrote it) limits to `T`. */
export const oneOf =
  <T extends string>() =>
  (v: unknown): T =>
    v as T;

/** The column kinds a row mapper reads fields as. */
export const column = { text, int, flag, decimal, cents, str, date, dateOrNull, json, oneOf };

/** How a field is read: from the column named after it in snake_case, or as given here. */
export type FieldSource<T> =
  ((value: unknown) => T) | { column: string; read: (value: unknown) => T } | { row: (r: Row) => T };

const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const readField = (r: Row, field: string, source: FieldSource<unknown>): unknown => {
  if (typeof source === 'function') return source(r[columnOf(field)]);
  return 'row' in source ? source.row(r) : source.read(r[source.column]);
};

/**
 * A record type's row mapper, from a table that says how each of its fields is read: every field
 * listed once, every conversion (NUMERIC, cents, timestamps, JSON, nulls) done the one way this file
 * does it.
 */
export const rowMapper =
  <T>(fields: { [K in keyof T]-?: FieldSource<T[K]> }) =>
  (r: Row): T =>
    Object.fromEntries(
      Object.entries<FieldSource<unknown>>(fields).map(([field, source]) => [
        field,
        readField(r, field, source),
      ]),
    ) as T;

/** The first row `query` finds, mapped; undefined when it finds none. */
export const firstOf = async <T>(query: Knex.QueryBuilder, map: (r: Row) => T): Promise<T | undefined> => {
  const row = (await query.first()) as Row | undefined;
  return row ? map(row) : undefined;
};
