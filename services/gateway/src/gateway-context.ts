import type { Knex } from 'knex';
import type { Logger, Metrics } from '@stablepay/platform';
import type { GatewayConfig } from './config.js';

/** What the gateway's operations run with; built once per service instance and passed down. */
export interface GatewayContext {
  config: GatewayConfig;
  db: Knex;
  logger: Logger;
  metrics: Metrics;
  /** Asks the outbox relay to publish now, after a transaction that enqueued events commits. */
  eventsCommitted: () => void;
  /** The hash verified against when a login names no account (same cost either way). */
  decoyPasswordHash: () => Promise<string>;
}

/** Where a request came from, for the audit log. */
export interface RequestMeta {
  ip?: string;
  userAgent?: string;
  requestId?: string;
}
