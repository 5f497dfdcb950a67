import { z } from 'zod';
import { decimalToBaseUnits, normalizeDecimal, numberToDecimalString } from './decimal.js';

export {
  baseUnitsToDecimal,
  decimalToBaseUnits,
  normalizeDecimal,
  numberToDecimalString,
} from './decimal.js';

/** Decimals of every supported token (USDC and EURC are both 6-decimal tokens). */
export const TOKEN_DECIMALS = 6;

export const Currency = z.enum(['USDC', 'EURC']);
export type Currency = z.infer<typeof Currency>;
export const CURRENCIES = Currency.options;

/**
 * Blockchain names used in `source_chain`, `blockchain` and `destinationChain`. The spec names ETH,
 * BASE, MATIC, ARB as examples; the rest are the other CCTP v2 EVM chains. Which ones a deployment
 * actually serves is decided by its chain registry configuration, not by this list.
 */
export const BlockchainName = z.enum([
  'ETH',
  'BASE',
  'MATIC',
  'ARB',
  'AVAX',
  'OP',
  'UNI',
  'LINEA',
  'SONIC',
  'WORLD',
  'SEI',
]);
export type BlockchainName = z.infer<typeof BlockchainName>;
export const BLOCKCHAIN_NAMES = BlockchainName.options;

export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** Any 8-4-4-4-12 hex UUID (version bits are not checked: ids come from our own databases). */
export const Uuid = z.string().regex(new RegExp(`^${UUID_PATTERN}$`), 'Invalid UUID');
export type Uuid = z.infer<typeof Uuid>;

const UUID_ANYWHERE = new RegExp(UUID_PATTERN, 'g');

/**
 * The one spelling of every UUID in a text: lower case (RFC 9562 §4 asks for lower case output, and
 * PostgreSQL prints uuids so). An id that reaches a domain function in another spelling names the
 * same row in a uuid column, yet differs as text wherever the id is bound into something (the
 * associated data of a sealed secret, a cache key, a URL): so ids are canonicalised once, where a
 * request's path parameters are read. Works inside composite ids too (`cs_live_<uuid>`).
 */
export const canonicalUuids = (text: string): string =>
  text.replace(UUID_ANYWHERE, (uuid) => uuid.toLowerCase());

export const TxHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'Invalid transaction hash');
export type TxHash = z.infer<typeof TxHash>;

export const EvmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Invalid EVM address');
export type EvmAddress = z.infer<typeof EvmAddress>;

/** Non-negative plain decimal text, e.g. "12.500000". */
export const DecimalString = z.string().regex(/^\d+(\.\d+)?$/, 'Invalid decimal string');
export type DecimalString = z.infer<typeof DecimalString>;

/** ISO 8601 timestamp; responses always use UTC with `Z` (Date#toISOString). */
export const IsoTimestamp = z.iso.datetime({ offset: true });
export type IsoTimestamp = z.infer<typeof IsoTimestamp>;

/** ISO date (`2025-01-31`) or ISO datetime, as accepted by list filters. */
export const IsoDateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
export type IsoDateOrDateTime = z.infer<typeof IsoDateOrDateTime>;

/** Public merchant id: `<prefix>_live_<uuid>` (or `_test_` for test-mode merchants). */
export const MERCHANT_PUBLIC_ID_RE = new RegExp(`^[a-z][a-z0-9]{0,15}_(live|test)_${UUID_PATTERN}$`);
export const MerchantPublicId = z.string().regex(MERCHANT_PUBLIC_ID_RE, 'Invalid merchant id');
export type MerchantPublicId = z.infer<typeof MerchantPublicId>;

export const ChainId = z.number().int().positive();
export type ChainId = z.infer<typeof ChainId>;

/** Arbitrary JSON object supplied by the merchant. */
export const JsonObject = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof JsonObject>;

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

/**
 * A whole number in a query string, written in decimal digits only: `0x10`, `1e3`, ` 5` or `5.0`
 * are refused rather than read as something the client may not have meant.
 */
export function queryInt(opts: { min?: number; max?: number } = {}) {
  return z
    .string()
    .regex(/^(0|[1-9]\d{0,14})$/, 'must be a whole number written in decimal digits')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(opts.min ?? 0)
        .max(opts.max ?? Number.MAX_SAFE_INTEGER),
    );
}

/** Page parameters shared by list endpoints. */
export function pageLimit(opts: { max: number; default: number }) {
  return queryInt({ min: 1, max: opts.max }).default(opts.default);
}
export const PageOffset = queryInt({ min: 0 }).default(0);
