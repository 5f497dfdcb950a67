import { baseUnitsToDecimal, decimalToBaseUnits } from '@stablepay/contracts';
import { rowColumn } from '@stablepay/platform';

export { firstOf, rowMapper, sumToDecimal, type FieldSource, type Row } from '@stablepay/platform';

export const { date, dateOrNull, decimal, str, json, text, oneOf } = rowColumn;
export const cents = (v: unknown): string => baseUnitsToDecimal(decimalToBaseUnits(String(v), 2), 2);
export const int = (v: unknown): number => Number(v);
/** A boolean column: true only for true (a null is false). */
export const flag = (v: unknown): boolean => v === true;

/** The column kinds a row mapper reads fields as. */
export const column = { text, int, flag, decimal, cents, str, date, dateOrNull, json, oneOf };
