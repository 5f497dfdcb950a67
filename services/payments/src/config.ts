import { z } from 'zod';
import type { ChainRegistry } from '@stablepay/contracts';
import {
  chainConfigShape,
  chainRegistryFromEnv,
  envBool,
  envInt,
  envSecret,
  loadConfig,
  serviceConfigShape,
} from '@stablepay/platform';

/** A plain decimal variable with at most `fractionDigits` digits, between 0 and `max`. */
const envDecimal = (fractionDigits: number, max: number) =>
  z
    .string()
    .regex(
      new RegExp(`^\\d+(\\.\\d{1,${fractionDigits}})?$`),
      `must be a decimal number with at most ${fractionDigits} fraction digits`,
    )
    .refine((text) => Number(text) <= max, `must be at most ${max}`);

export const paymentsConfigSchema = z.object({
  ...serviceConfigShape({ port: 8101, schema: 'payments' }),
  ...chainConfigShape,
  /** The hosted checkout page; a session's url is `${CHECKOUT_URL}?session=<id>`. */
  CHECKOUT_URL: z.url().default('http://localhost:8081/'),
  /** Allows http:// return and cancel URLs (local development and the embedded dev stack only). */
  ALLOW_INSECURE_URLS: envBool.default(false),
  CHECKOUT_EXPIRY_SWEEP_MS: envInt.pipe(z.number().min(10)).default(5000),
  /** `live` issues `cs_live_` session ids, `test` issues `cs_test_`. */
  ENVIRONMENT: z.enum(['live', 'test']).default('live'),
  /** Base URL of the chain-watcher's internal API (the inputs of cross-chain fee quotes). */
  CHAIN_WATCHER_URL: z.url().default('http://127.0.0.1:8102'),
  /** A fee-input request that has not answered after this long counts as the chain-watcher being down. */
  CHAIN_WATCHER_TIMEOUT_MS: envInt.pipe(z.number().min(100)).default(5000),
  /** Signs cross-chain fee quotes (HMAC-SHA256); changing it voids every quote still out. */
  FEE_QUOTE_SECRET: envSecret(32),
  /** How long a fee quote may be used for a payment. */
  FEE_QUOTE_VALID_SECONDS: envInt.pipe(z.number().int().min(10).max(3600)).default(300),
  /** Margin on the estimated destination gas cost, in percent (gas prices move while the quote is out). */
  FEE_QUOTE_GAS_BUFFER_PERCENT: envDecimal(2, 1000).default('20'),
  /** The gas fee of a quote is never below this, in USD. */
  FEE_QUOTE_MIN_GAS_FEE: envDecimal(6, 1000).default('0.50'),
  /** Circle's fast-transfer fee on the burned amount, in basis points (fractions down to 1/1000 bp). */
  FEE_QUOTE_ATTESTATION_FEE_BPS: envDecimal(3, 1000).default('1'),
  /**
   * Who bears the relay's network fee (and Circle's fee) of a gasless payment: added to what the
   * customer authorises, or recorded against the merchant's balance. The default for merchants that
   * have not chosen it in their settings (`network_fee_bearer`).
   */
  GASLESS_FEE_BEARER: z.enum(['customer', 'merchant']).default('customer'),
  /** New gasless payments one payer address may open per minute (shared by every replica). */
  GASLESS_PAYER_LIMIT_PER_MINUTE: envInt.pipe(z.number().int().min(1).max(1000)).default(5),
});

/** The variables, plus the chain registry they resolve to (the chains a payment may come from). */
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema> & { chainRegistry: ChainRegistry };

/** A bad chain registry stops the service at start, like any other bad variable. */
export const loadPaymentsConfig = (env: Record<string, string | undefined> = process.env): PaymentsConfig => {
  const config = loadConfig(paymentsConfigSchema, env);
  return { ...config, chainRegistry: chainRegistryFromEnv(config) };
};
