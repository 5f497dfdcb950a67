/**
 * Exact conversions between decimal strings (the API edge) and integer base units (the domain).
 * USDC and EURC both have 6 decimals, hence the default. No floating point is involved anywhere.
 */

const DECIMAL_RE = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * "12.5" -> 12500000n. Throws on anything that is not a plain decimal number (no exponent, no
 * whitespace, no thousands separators) and on more fraction digits than `decimals` (never rounds).
 */
export function decimalToBaseUnits(str: string, decimals = 6): bigint {
  assertDecimals(decimals);
  if (typeof str !== 'string') throw new TypeError('decimal value must be a string');
  const match = DECIMAL_RE.exec(str);
  if (!match) throw new RangeError(`not a decimal number: ${JSON.stringify(str)}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > decimals) {
    throw new RangeError(`more than ${decimals} fraction digits: ${JSON.stringify(str)}`);
  }
  const units = BigInt(whole + fraction.padEnd(decimals, '0'));
  return sign ? -units : units;
}

/** 12500000n -> "12.500000": always exactly `decimals` fraction digits. */
export function baseUnitsToDecimal(units: bigint, decimals = 6): string {
  assertDecimals(decimals);
  if (typeof units !== 'bigint') throw new TypeError('base units must be a bigint');
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}

/** Canonical form of a decimal string: "1.5" -> "1.500000". Throws like decimalToBaseUnits. */
export function normalizeDecimal(str: string, decimals = 6): string {
  return baseUnitsToDecimal(decimalToBaseUnits(str, decimals), decimals);
}

/**
 * Decimal text of a JS number as the client wrote it. `String(n)` yields the shortest text that
 * round-trips, so 0.1 stays "0.1"; exponent forms (below 1e-6 or from 1e21) are refused because
 * they are far outside every amount range we accept.
 */
export function numberToDecimalString(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError('amount must be a finite number');
  const text = String(n);
  if (/e/i.test(text)) throw new RangeError(`amount out of range: ${text}`);
  return text;
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) {
    throw new RangeError(`invalid number of decimals: ${decimals}`);
  }
}
