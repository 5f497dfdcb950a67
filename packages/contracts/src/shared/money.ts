import { z } from 'zod';
import { decimalToBaseUnits, normalizeDecimal, numberToDecimalString } from './decimal.js';

/** The tokens a payment may be made in. */
export const Currency = z.enum(['USDC', 'EURC']);
export type Currency = z.infer<typeof Currency>;
export const CURRENCIES = Currency.options;

/** Non-negative plain decimal text, e.g. "12.500000". */
export const DecimalString = z.string().regex(/^\d+(\.\d+)?$/, 'Invalid decimal string');

/** An amount and the token it is in, as a payment, a refund or a checkout session shows them. */
export const amountInCurrency = { amount: DecimalString, currency: Currency };

/** Decimals of every supported token (USDC and EURC are both 6-decimal tokens). */
export const TOKEN_DECIMALS = 6;

/** Limits of the amounts a payment or a checkout session may carry (spec: 0.01 to 1,000,000). */
export const PAYMENT_AMOUNT_MIN = '0.01';
export const PAYMENT_AMOUNT_MAX = '1000000';

type AmountLimits = { min?: string; max?: string; minExclusive?: boolean };

/**
 * Checks a money amount exactly (in base units) against [min, max] and returns the canonical
 * 6-decimal string ("12.500000"). More than 6 fraction digits are rejected, never rounded:
 * 0.1 is accepted, 0.30000000000000004 is not.
 */
function checkAmount(value: string | number, limits: AmountLimits, ctx: z.RefinementCtx): string {
  let text: string;
  try {
    text = typeof value === 'number' ? numberToDecimalString(value) : value;
    if (!/^\d+(\.\d+)?$/.test(text)) throw new RangeError('not a decimal');
  } catch {
    ctx.addIssue({ code: 'custom', message: 'Amount must be a positive decimal number' });
    return z.NEVER;
  }
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length > TOKEN_DECIMALS) {
    ctx.addIssue({ code: 'custom', message: `Amount must have at most ${TOKEN_DECIMALS} decimal places` });
    return z.NEVER;
  }
  const units = decimalToBaseUnits(text);
  if (limits.min !== undefined) {
    const min = decimalToBaseUnits(limits.min);
    if (limits.minExclusive ? units <= min : units < min) {
      ctx.addIssue({
        code: 'too_small',
        origin: 'number',
        minimum: Number(limits.min),
        inclusive: !limits.minExclusive,
        message: `Amount must be ${limits.minExclusive ? 'greater than' : 'at least'} ${limits.min}`,
      });
      return z.NEVER;
    }
  }
  if (limits.max !== undefined && units > decimalToBaseUnits(limits.max)) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'number',
      maximum: Number(limits.max),
      inclusive: true,
      message: `Amount must be at most ${limits.max}`,
    });
    return z.NEVER;
  }
  return normalizeDecimal(text);
}

/** Amount given as a JSON number or a decimal string; canonical decimal string out. */
export function moneyAmount(limits: AmountLimits = {}) {
  return z
    .union([z.number(), z.string()])
    .describe('Amount as a JSON number or a decimal string, at most 6 decimal places')
    .transform((value, ctx) => checkAmount(value, limits, ctx))
    .pipe(DecimalString);
}

/** Amount given as a decimal string only; canonical decimal string out. */
export function moneyAmountString(limits: AmountLimits = {}) {
  return z
    .string()
    .describe('Decimal string, at most 6 decimal places')
    .transform((value, ctx) => checkAmount(value, limits, ctx))
    .pipe(DecimalString);
}

/** Payment / checkout amount: 0.01 to 1,000,000, number or decimal string, canonical string out. */
export const PaymentAmountInput = moneyAmount({ min: PAYMENT_AMOUNT_MIN, max: PAYMENT_AMOUNT_MAX });
export type PaymentAmountInput = z.input<typeof PaymentAmountInput>;

/** Strictly positive decimal string (refunds, withdrawals), canonical 6-decimal string out. */
export const PositiveDecimalInput = moneyAmountString({ min: '0', minExclusive: true });
export type PositiveDecimalInput = z.input<typeof PositiveDecimalInput>;
