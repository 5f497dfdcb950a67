import type { Knex } from 'knex';
import {
  wakingEventWriter,
  type EventWriter,
  type Logger,
  type Metrics,
  type ServiceDeps,
} from '@stablepay/platform';
import type { GatewayConfig } from './config.js';
import { failureCounter, type FailureCounter } from './perimeter/failure-counter.js';
import { createDecoyHash } from './accounts/passwords.js';
import { createRateLimitStores, type RateLimitStores } from './perimeter/rate-limit-store.js';
import { createGatewayMetrics } from './metrics.js';

/** What the gateway's operations run with; built once per service instance and passed down. */
export interface GatewayContext {
  config: GatewayConfig;
  db: Knex;
  logger: Logger;
  metrics: Metrics;
  /** Writes an integration event in the caller's transaction; the outbox relay wakes once it commits. */
  writeEvent: EventWriter;
  /** The hash verified against when a login names no account (same cost either way). */
  decoyPasswordHash: () => Promise<string>;
  /** Where rate limits and failure counts are kept (Redis with REDIS_URL, else memory). */
  limitStores: RateLimitStores;
  /** Failed sign-ins per account (by e-mail, known or not), whatever address they come from. */
  signInFailures: FailureCounter;
}

export const createGatewayContext = (
  config: GatewayConfig,
  { db, logger, metrics }: ServiceDeps,
  /** the outbox relay's wake-up (`ServiceKit.eventsCommitted`) */
  eventsCommitted: () => void,
): GatewayContext => {
  const limitStores = createRateLimitStores({
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    errors: createGatewayMetrics(metrics).rateLimitStoreErrors,
  });
  const ctx = {
    config,
    db,
    logger,
    metrics,
    writeEvent: wakingEventWriter('gateway', eventsCommitted),
    decoyPasswordHash: createDecoyHash(config.SCRYPT_COST),
    limitStores,
    signInFailures: failureCounter(
      limitStores.create('signin-account'),
      config.SIGNIN_LOCKOUT_FAILURES,
      config.SIGNIN_LOCKOUT_WINDOW_SECONDS * 1000,
    ),
  };
  // Made now, so the first login naming an unknown account costs no more than any other.
  ctx
    .decoyPasswordHash()
    .catch((err: unknown) => logger.warn('could not prepare the decoy password hash', { err }));
  return ctx;
};

/** Where a request came from, for the audit log. */
export interface RequestMeta {
  ip?: string;
  userAgent?: string;
  requestId?: string;
}
