import { z } from 'zod';
import { EvmAddress, normalizeDecimal } from '@stablepay/contracts';
import { ConfigError, envBool, envInt, loadConfig, serviceConfigShape } from '@stablepay/platform';
import { vatNumberProblem } from './billing/tax.js';
import { isEuMember } from './billing/vat-rates.js';

/** A decimal with at most 6 fraction digits, kept as its canonical 6-decimal string. */
const sixDecimals = z
  .string()
  .regex(/^\d+(\.\d{1,6})?$/, 'must be a decimal number with at most 6 decimals')
  .transform((v) => normalizeDecimal(v));

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration such as `24h`, `90m`, `2s`, `1d` or `0`, as milliseconds. */
const envDuration = z
  .string()
  .trim()
  .regex(/^(0|\d+(ms|s|m|h|d))$/, 'must be a duration such as 24h, 90m, 30s or 0')
  .transform((v) => {
    const m = /^(\d+)(ms|s|m|h|d)?$/.exec(v)!;
    return Number(m[1]) * (m[2] ? DURATION_UNITS_MS[m[2] as keyof typeof DURATION_UNITS_MS] : 0);
  })
  .pipe(
    z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400_000, 'must be at most 30 days'),
  );

const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')
  .transform((v) => v.toUpperCase());

/** A seller setting; blank is unset, as an empty variable is. */
const sellerText = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .optional();

/** The seller settings an invoice cannot be filed without: production refuses to start without them. */
const REQUIRED_SELLER = [
  'SELLER_NAME',
  'SELLER_STREET',
  'SELLER_POSTCODE',
  'SELLER_CITY',
  'SELLER_COUNTRY',
] as const;

type SellerSettings = { NODE_ENV: string } & Partial<
  Record<(typeof REQUIRED_SELLER)[number] | 'SELLER_VAT_NUMBER' | 'SELLER_TAX_NUMBER', string>
>;

const sellerProblems = (c: SellerSettings): Array<{ path: string[]; message: string }> => {
  const problems: Array<{ path: string[]; message: string }> = [];
  const country = c.SELLER_COUNTRY ?? DEVELOPMENT_SELLER_COUNTRY;
  const vatProblem = c.SELLER_VAT_NUMBER && vatNumberProblem(country, c.SELLER_VAT_NUMBER);
  if (vatProblem) problems.push({ path: ['SELLER_VAT_NUMBER'], message: vatProblem });
  if (c.NODE_ENV !== 'production') return problems;
  for (const key of REQUIRED_SELLER)
    if (!c[key])
      problems.push({ path: [key], message: 'is required in production (printed on every invoice)' });
  if (!c.SELLER_VAT_NUMBER && !c.SELLER_TAX_NUMBER)
    problems.push({
      path: ['SELLER_VAT_NUMBER'],
      message: 'is required in production, or SELLER_TAX_NUMBER (printed on every invoice)',
    });
  return problems;
};

/** Outside production an unset SELLER_COUNTRY decides VAT as Germany's. */
export const DEVELOPMENT_SELLER_COUNTRY = 'DE';

export const invoicingConfigSchema = z
  .object({
    ...serviceConfigShape({ port: 8104, schema: 'invoicing' }),
    /** Base URL of the chain-watcher's internal API (merchant wallet balances). */
    CHAIN_WATCHER_URL: z.url().default('http://127.0.0.1:8102'),
    CHAIN_WATCHER_TIMEOUT_MS: envInt.pipe(z.number().min(100)).default(5000),

    /** Share of a withdrawal taken as the service fee, as a fraction: 0.005 is 0.5 %. */
    WITHDRAWAL_FEE_RATE: sixDecimals
      .refine((v) => Number(v) < 1, 'must be below 1 (a fraction, 0.005 is 0.5 %)')
      .default(normalizeDecimal('0.005')),
    /** The smallest fee, in token units (USDC and EURC alike); above 0, as every fee is a transfer. */
    WITHDRAWAL_FEE_MIN: sixDecimals
      .refine((v) => Number(v) > 0, 'must be above 0 (the fee is sent as its own transfer)')
      .default(normalizeDecimal('0.1')),
    /** Where withdrawal fees are sent, on every chain (an EVM address the operator controls). */
    TREASURY_ADDRESS: EvmAddress,
    /**
     * How long a new address on the withdrawal address book waits before a withdrawal may go there:
     * time for the merchant to see the e-mail and remove an address they did not add. A duration
     * (`24h`, `90m`, `30s`, `0`; at most 30 days), read as milliseconds; 0 on the devnet.
     */
    WITHDRAWAL_ADDRESS_HOLD: envDuration.prefault('24h'),

    /** `<PREFIX>-<year>-<sequence>`; each prefix and year has its own gapless sequence. */
    INVOICE_PREFIX: z
      .string()
      .regex(/^[A-Z][A-Z0-9]{0,9}$/, 'must be 1-10 upper-case letters or digits, starting with a letter')
      .default('INV'),
    /**
     * The seller's legal name, printed on every invoice (Art. 226 of Directive 2006/112/EC, as the
     * SELLER_* below). Required in production; elsewhere an unset seller prints as not configured.
     */
    SELLER_NAME: sellerText,
    /** Street and number; a second line (building, floor) after `|`. Required in production. */
    SELLER_STREET: sellerText,
    /** The seller's postcode. Required in production. */
    SELLER_POSTCODE: sellerText,
    /** The seller's city. Required in production. */
    SELLER_CITY: sellerText,
    /**
     * Decides domestic VAT and the reverse charge: an EU member state. Required in production; `DE`
     * elsewhere.
     */
    SELLER_COUNTRY: country
      .refine(isEuMember, 'must be an EU member state (the VAT rules applied are the EU rules)')
      .optional(),
    /**
     * The seller's VAT identification number, with its country prefix (`DE123456789`), as Art. 226
     * names it. Production requires it, or SELLER_TAX_NUMBER where the member state allows that.
     */
    SELLER_VAT_NUMBER: sellerText,
    /** A national tax number (`12/345/67890`), printed only when the seller has no VAT number. */
    SELLER_TAX_NUMBER: sellerText,
    /** Printed under the seller's address. */
    SELLER_EMAIL: z.string().optional(),

    /** `fixed`: the rates below (the devnet); `ecb`: the ECB's daily reference rates from ECB_RATES_URL. */
    EUR_RATE_SOURCE: z.enum(['fixed', 'ecb']).default('fixed'),
    /** EUR per USDC for the `fixed` source (EURC is always 1:1). */
    EUR_RATE_USDC: sixDecimals.default(normalizeDecimal('0.92')),
    ECB_RATES_URL: z.url().default('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml'),
    /** How often the `ecb` source fetches the feed (it publishes once per working day). */
    ECB_REFRESH_MS: envInt.pipe(z.number().min(1000)).default(3_600_000),

    /** `local`: files under INVOICE_STORAGE_DIR; `s3`: an S3-compatible bucket. */
    INVOICE_STORAGE: z.enum(['local', 's3']).default('local'),
    INVOICE_STORAGE_DIR: z.string().default('var/invoices'),
    S3_BUCKET: z.string().optional(),
    /** For S3-compatible stores (MinIO, s3rver); empty for AWS itself. */
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_FORCE_PATH_STYLE: envBool.default(false),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** Key prefix inside the bucket, e.g. `invoices/`. */
    S3_PREFIX: z.string().default(''),

    /** How often the PDF worker looks for invoices whose PDF is not stored yet. */
    PDF_POLL_MS: envInt.pipe(z.number().min(10)).default(1000),
  })
  .superRefine((c, ctx) => {
    for (const problem of sellerProblems(c)) ctx.addIssue({ code: 'custom', ...problem });
    if (c.INVOICE_STORAGE === 's3' && !c.S3_BUCKET)
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when INVOICE_STORAGE=s3' });
    if (!!c.S3_ACCESS_KEY_ID !== !!c.S3_SECRET_ACCESS_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['S3_SECRET_ACCESS_KEY'],
        message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all',
      });
  });

export type InvoicingConfig = z.infer<typeof invoicingConfigSchema>;

export const loadInvoicingConfig = (
  env: Record<string, string | undefined> = process.env,
): InvoicingConfig => {
  // The address is now in its parts: a left-over value would otherwise vanish from the invoices unseen.
  if (env.SELLER_ADDRESS)
    throw new ConfigError(['SELLER_ADDRESS: replaced by SELLER_STREET, SELLER_POSTCODE and SELLER_CITY']);
  return loadConfig(invoicingConfigSchema, env);
};
