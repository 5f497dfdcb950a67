import { z } from 'zod';
import type { ChainRegistry } from '@stablepay/contracts';
import {
  baseConfigShape,
  chainConfigShape,
  chainRegistryFromEnv,
  envBool,
  envInt,
  envPort,
  loadConfig,
} from '@stablepay/platform';

export const paymentsConfigSchema = z.object({
  ...baseConfigShape,
  ...chainConfigShape,
  PORT: envPort.default(8101),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('payments'),
  /** The hosted checkout page; a session's url is `${CHECKOUT_URL}?session=<id>`. */
  CHECKOUT_URL: z.url().default('http://localhost:8081/'),
  /** Allows http:// return and cancel URLs (local development and the embedded dev stack only). */
  ALLOW_INSECURE_URLS: envBool.default(false),
  CHECKOUT_EXPIRY_SWEEP_MS: envInt.pipe(z.number().min(10)).default(5000),
  /** `live` issues `cs_live_` session ids, `test` issues `cs_test_`. */
  ENVIRONMENT: z.enum(['live', 'test']).default('live'),
});

/** The variables, plus the chain registry they resolve to (the chains a payment may come from). */
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema> & { chainRegistry: ChainRegistry };

/** A bad chain registry stops the service at start, like any other bad variable. */
export const loadPaymentsConfig = (env: Record<string, string | undefined> = process.env): PaymentsConfig => {
  const config = loadConfig(paymentsConfigSchema, env);
  return { ...config, chainRegistry: chainRegistryFromEnv(config) };
};
