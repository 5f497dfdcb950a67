/** Amounts as the API writes them (decimal strings) and as the tokens count them (6-decimal base units). */
export const DECIMALS = 6;
const UNIT = 10n ** BigInt(DECIMALS);

export const MIN_AMOUNT = 10_000n; // 0.01
export const MAX_AMOUNT = 1_000_000n * UNIT;

/** "12.5" → 12500000n; undefined for anything that is not a plain decimal of at most 6 fraction digits. */
export const parseAmount = (text: string): bigint | undefined => {
  const m = /^\s*(\d{1,7})(?:[.,](\d{0,6}))?\s*$/.exec(text);
  if (!m) return undefined;
  return BigInt(m[1]!) * UNIT + BigInt((m[2] ?? '').padEnd(DECIMALS, '0') || '0');
};

export const toDecimal = (units: bigint): string => {
  const whole = units / UNIT;
  const frac = (units % UNIT).toString().padStart(DECIMALS, '0');
  return `${whole}.${frac}`;
};

/** For people: grouped by the customer's locale, at least 2 fraction digits, none lost. */
export const formatAmount = (units: bigint, locale: string): string => {
  const frac = (units % UNIT).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  const digits = Math.max(2, frac.length);
  const whole = new Intl.NumberFormat(locale).format(units / UNIT);
  const sep =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return `${whole}${sep}${frac.padEnd(digits, '0')}`;
};

/**
 * An estimate for people ("about 0.000042 ETH"): rounded up to two significant digits, so that it
 * never reads as less than it may be; `decimals` of the token (18 for a chain's native token).
 */
export const formatEstimate = (units: bigint, decimals: number, locale: string): string => {
  const step = 10n ** BigInt(Math.max(0, units.toString().length - 2));
  const rounded = ((units + step - 1n) / step) * step;
  const unit = 10n ** BigInt(decimals);
  const frac = (rounded % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  const whole = new Intl.NumberFormat(locale).format(rounded / unit);
  const sep =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return frac ? `${whole}${sep}${frac}` : whole;
};
