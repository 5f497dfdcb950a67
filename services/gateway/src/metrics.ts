import type { Metrics } from '@stablepay/platform';
import { Counter } from 'prom-client';

/** The gateway's own series, registered on the service's registry (served at /metrics). */
export interface GatewayMetrics {
  /** Rate-limit counts Redis did not answer, counted in the replica's memory instead. */
  rateLimitStoreErrors: Counter<'limiter'>;
}

export const createGatewayMetrics = (metrics: Metrics): GatewayMetrics => ({
  rateLimitStoreErrors: new Counter({
    name: 'rate_limit_store_errors_total',
    help: 'Rate-limit counts that Redis did not answer, counted in this replica’s memory instead',
    labelNames: ['limiter'],
    registers: [metrics.registry],
  }),
});
