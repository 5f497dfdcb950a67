import type { Knex } from 'knex';
import type { Logger, Worker } from '@stablepay/platform';
import type { InvoicingConfig } from '../config.js';
import { ecbRatesWorker } from './ecb-feed.js';
import { fixedEurRates, storedEcbRates, type EurRateSource } from './eur-rates.js';

/** The rate source EUR_RATE_SOURCE names: the configured fixed rates, or the ECB's stored ones. */
export const eurRatesFromConfig = (c: InvoicingConfig): EurRateSource =>
  c.EUR_RATE_SOURCE === 'ecb' ? storedEcbRates() : fixedEurRates({ USDC: c.EUR_RATE_USDC });

/** The ECB source needs its feed fetched ahead of need; a source given instead needs nothing. */
export const eurRateWorkers = (
  c: InvoicingConfig,
  deps: { db: Knex; logger: Logger },
  given: EurRateSource | undefined,
): Worker[] =>
  c.EUR_RATE_SOURCE === 'ecb' && !given
    ? [
        ecbRatesWorker({
          db: deps.db,
          url: c.ECB_RATES_URL,
          intervalMs: c.ECB_REFRESH_MS,
          timeoutMs: 10_000,
          logger: deps.logger,
        }),
      ]
    : [];
