import { z } from 'zod';
import { EvmAddress, normalizeDecimal } from '@stablepay/contracts';
import { envBool, envInt, loadConfig, serviceConfigShape } from '@stablepay/platform';
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
    /** The seller printed on every invoice. */
    SELLER_NAME: z.string().min(1).default('Stablepay'),
    /** Address lines separated by `|`, e.g. `Hauptstr. 1|10115 Berlin`. */
    SELLER_ADDRESS: z.string().default(''),
    /** Decides domestic VAT and the reverse charge: an EU member state. */
    SELLER_COUNTRY: country
      .refine(isEuMember, 'must be an EU member state (the VAT rules applied are the EU rules)')
      .default('DE'),
    SELLER_VAT_NUMBER: z.string().optional(),
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

export const loadInvoicingConfig = (env: Record<string, string | undefined> = process.env): InvoicingConfig =>
  loadConfig(invoicingConfigSchema, env);
