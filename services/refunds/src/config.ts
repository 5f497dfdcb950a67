import { z } from 'zod';
import { REFUND_WINDOW_DAYS } from '@stablepay/contracts';
import { envInt, loadConfig, serviceConfigShape } from '@stablepay/platform';

export const refundsConfigSchema = z.object({
  ...serviceConfigShape({ port: 8103, schema: 'refunds' }),
  /** Base URL of the chain-watcher's internal API (merchant wallet balances). */
  CHAIN_WATCHER_URL: z.url().default('http://127.0.0.1:8102'),
  /** A balance request that has not answered after this long counts as the chain-watcher being down. */
  CHAIN_WATCHER_TIMEOUT_MS: envInt.pipe(z.number().min(100)).default(5000),
  /** Base URL of the payments service's internal API (a payment not yet known here, read through). */
  PAYMENTS_URL: z.url().default('http://127.0.0.1:8101'),
  /** A payment read that has not answered after this long counts as the payments service being down. */
  PAYMENTS_TIMEOUT_MS: envInt.pipe(z.number().min(100)).default(5000),
  /** A new refund stays pending (and cancellable) at least this long before it is sent. */
  REFUND_HOLD_SECONDS: envInt.pipe(z.number().min(0)).default(60),
  /** How often the dispatcher looks for refunds to send. */
  DISPATCH_POLL_MS: envInt.pipe(z.number().min(10)).default(1000),
  /** Refunds are accepted up to this many days after the payment completed (spec: 180). */
  REFUND_WINDOW_DAYS: envInt.pipe(z.number().min(1)).default(REFUND_WINDOW_DAYS),
});

export type RefundsConfig = z.infer<typeof refundsConfigSchema>;

export const loadRefundsConfig = (env: Record<string, string | undefined> = process.env): RefundsConfig =>
  loadConfig(refundsConfigSchema, env);
