import { rowColumn } from '@stablepay/platform';

export { firstOf, rowMapper, sumToDecimal, type FieldSource, type Row } from '@stablepay/platform';

export const { date, dateOrNull, decimal, decimalOrNull, str, text, oneOf } = rowColumn;

/** The column kinds a row mapper reads fields as. */
export const column = { text, decimal, decimalOrNull, str, date, dateOrNull, oneOf };
