import type { Knex } from 'knex';
import { baseUnitsToDecimal } from '@stablepay/contracts';
import { loopWorker, type Logger, type LoopWorker } from '@stablepay/platform';
import { divRound } from '../amounts.js';
import { EUR_RATES } from '../db/migrations.js';

/** One day of the ECB feed: USD per EUR, as published. */
export interface EcbDailyRate {
  date: string;
  usdPerEur: string;
}

/**
 * Reads the day and the USD rate out of the ECB's `eurofxref-daily.xml`
 * (`<Cube time="2025-01-31"><Cube currency="USD" rate="1.0393"/>...`). Undefined when the document
 * does not have them.
 */
export const parseEcbDaily = (xml: string): EcbDailyRate | undefined => {
  const day = /<Cube\s+time=["'](\d{4}-\d{2}-\d{2})["']/.exec(xml)?.[1];
  const usd = /<Cube\s+currency=["']USD["']\s+rate=["'](\d+(?:\.\d+)?)["']/.exec(xml)?.[1];
  return day && usd ? { date: day, usdPerEur: usd } : undefined;
};

/** EUR per USD to 6 decimals, rounded half up: 1 / 1.0393 = 0.962186. */
export const eurPerUsd = (usdPerEur: string): string => {
  const [whole, fraction = ''] = usdPerEur.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const rate = BigInt(whole! + fraction);
  return baseUnitsToDecimal(divRound(scale * 1_000_000n, rate));
};

/**
 * Fetches the ECB's daily reference rates and stores the day's USDC rate (at par with USD). Runs in
 * every replica; the stored row is keyed by day, so replicas that fetch the same day store it once.
 */
export const ecbRatesWorker = (opts: {
  db: Knex;
  url: string;
  intervalMs: number;
  timeoutMs: number;
  logger: Logger;
}): LoopWorker => {
  let fetched = false;
  return loopWorker({
    name: 'ecb-rates',
    intervalMs: opts.intervalMs,
    logger: opts.logger,
    pass: async () => {
      const res = await fetch(opts.url, { signal: AbortSignal.timeout(opts.timeoutMs) });
      if (!res.ok) throw new Error(`ECB feed answered ${res.status}`);
      const daily = parseEcbDaily(await res.text());
      if (!daily) throw new Error('ECB feed without a USD rate');
      await opts
        .db(EUR_RATES)
        .insert({
          currency: 'USDC',
          rate_date: daily.date,
          eur_per_unit: eurPerUsd(daily.usdPerEur),
          source: 'ecb',
        })
        .onConflict(['currency', 'rate_date'])
        .ignore();
      if (!fetched)
        opts.logger.info('ECB reference rate stored', { date: daily.date, usdPerEur: daily.usdPerEur });
      fetched = true;
      return false;
    },
  });
};
