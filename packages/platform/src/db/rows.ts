import type { Knex } from 'knex';
import { normalizeDecimal } from '@stablepay/contracts';

/** A row as the driver returns it (pg and PGlite differ in a few types, handled below). */
export type Row = Record<string, unknown>;

const isNull = (v: unknown): v is null | undefined => v === null || v === undefined;
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
/** NUMERIC arrives as text from both drivers; normalising keeps the 6-decimal form. */
const decimal = (v: unknown): string => normalizeDecimal(String(v));

/**
 * The column kinds a row is read as, each conversion (NUMERIC, timestamps, JSON, nulls) done one way
 * for every service.
 */
export const rowColumn = {
  text: (v: unknown): string => String(v),
  str: (v: unknown): string | null => (isNull(v) ? null : String(v)),
  decimal,
  decimalOrNull: (v: unknown): string | null => (isNull(v) ? null : decimal(v)),
  date,
  dateOrNull: (v: unknown): Date | null => (isNull(v) ? null : date(v)),
  /** A JSON(B) column: pg parses it, PGlite may hand over the text. */
  json: <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T)),
  /** A column whose values the schema's check constraint (or the code that wrote it) limits to `T`. */
  oneOf:
    <T extends string>() =>
    (v: unknown): T =>
      v as T,
};

/** A SUM over NUMERIC (text, or null over no rows). */
export const sumToDecimal = (v: unknown): string => (isNull(v) ? '0.000000' : decimal(v));

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
 * listed once, every conversion done the one way `rowColumn` does it.
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
