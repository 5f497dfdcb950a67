import { z } from 'zod';
import { BlockchainName } from '@stablepay/contracts';
import { baseConfigShape, envBool, envInt, envPort, loadConfig } from '@stablepay/platform';

/** `{"31337":"BASE"}`: extra chain ids (devnets, testnets) and the blockchain name they stand for. */
const extraChains = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object such as {"31337":"BASE"}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string().regex(/^[1-9]\d*$/, 'chain ids must be positive integers'), BlockchainName));

export const paymentsConfigSchema = z.object({
  ...baseConfigShape,
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
  EXTRA_CHAINS: extraChains.default({}),
});

export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

export const loadPaymentsConfig = (env: Record<string, string | undefined> = process.env): PaymentsConfig =>
  loadConfig(paymentsConfigSchema, env);
