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
