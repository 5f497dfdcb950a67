import type { Knex } from 'knex';
import { normalizeDecimal, type Currency } from '@stablepay/contracts';
import { EUR_RATES } from '../db/migrations.js';
import type { Row } from '../db/rows.js';

/** What one unit of a token was worth in EUR, on which day, by which source. */
export interface EurRate {
  /** EUR per token unit, 6 decimals */
  eurPerUnit: string;
  /** `YYYY-MM-DD` */
  date: string;
  source: string;
}

/**
 * Where the EUR value of a fee comes from. Asked inside the transaction that issues the invoice, so
 * a source never waits on the network there: a feed is fetched ahead of need (see the ECB source).
 */
export interface EurRateSource {
  readonly name: string;
  rateFor(db: Knex | Knex.Transaction, currency: Currency, on: Date): Promise<EurRate>;
}

/** No rate is known yet for the day (the feed has not been fetched): issuing is retried later. */
export class RateUnavailableError extends Error {
  override readonly name = 'RateUnavailableError';
}

export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** EURC is a euro token: one unit is one euro, whatever the source. */
const EURC_PAR = (on: Date): EurRate => ({ eurPerUnit: '1.000000', date: utcDay(on), source: 'par' });

/** Configured rates, the same every day: the devnet, and deployments that set their own. */
export const fixedEurRates = (rates: { USDC: string }): EurRateSource => ({
  name: 'fixed',
  rateFor: async (_db, currency, on) =>
    currency === 'EURC'
      ? EURC_PAR(on)
      : { eurPerUnit: normalizeDecimal(rates.USDC), date: utcDay(on), source: 'fixed' },
});

/**
 * The ECB's euro foreign exchange reference rates, stored by the refresher (`ecb-rates` worker): the
 * most recent rate published on or before the day of issue (the ECB publishes on working days).
 * USDC is valued at par with the US dollar.
 */
export const storedEcbRates = (): EurRateSource => ({
  name: 'ecb',
  rateFor: async (db, currency, on) => {
    if (currency === 'EURC') return EURC_PAR(on);
    const day = utcDay(on);
    const row = (await db(EUR_RATES)
      .where({ currency })
      .andWhere('rate_date', '<=', day)
      .orderBy('rate_date', 'desc')
      .first()) as Row | undefined;
    if (!row) throw new RateUnavailableError(`no ECB reference rate for ${currency} on or before ${day} yet`);
    return {
      eurPerUnit: normalizeDecimal(String(row.eur_per_unit)),
      date: String(row.rate_date),
      source: 'ecb',
    };
  },
});
