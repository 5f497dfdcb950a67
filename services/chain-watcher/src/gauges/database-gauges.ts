import type { Knex } from 'knex';
import { Gauge } from 'prom-client';
import { chainById, type ChainRegistry } from '@stablepay/contracts';
import type { Metrics } from '@stablepay/platform';
import { latestDiscrepancyTotals } from '../ledger/reconciliation-repo.js';
import { VERIFICATIONS } from '../migrations/tables.js';

/** A series' name and help, declared with the others in metrics.ts. */
export interface SeriesName {
  name: string;
  help: string;
}

/**
 * Payments waiting for a verdict, per chain, read from the database at each scrape: how many, and
 * how long the oldest has waited since it was created (the lag an operator acts on).
 */
export const pendingVerificationGauges = (
  base: Metrics,
  db: Knex,
  registry: ChainRegistry,
  series: { waiting: SeriesName; oldest: SeriesName },
): void => {
  const read = async () =>
    (
      (await db.raw(
        `select chain_id, count(*)::int as waiting,
                extract(epoch from now() - min(payment_created_at))::float8 as oldest
           from ${VERIFICATIONS} where status = 'pending' group by chain_id`,
      )) as { rows: Array<{ chain_id: number; waiting: number; oldest: number }> }
    ).rows;
  const gauge = (spec: {
    name: string;
    help: string;
    pick: (r: { waiting: number; oldest: number }) => number;
  }) =>
    new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: ['chain'],
      registers: [base.registry],
      async collect() {
        const rows = await read().catch(() => undefined);
        if (!rows) return;
        this.reset();
        for (const chain of registry.chains) this.set({ chain: chain.name }, 0);
        for (const r of rows)
          this.set(
            { chain: chainById(registry, Number(r.chain_id))?.name ?? String(r.chain_id) },
            spec.pick(r),
          );
      },
    });
  gauge({ ...series.waiting, pick: (r) => r.waiting });
  gauge({ ...series.oldest, pick: (r) => Number(r.oldest) });
};

/**
 * The latest reconciliation of the ledger with the chain, read from the database at scrape time so
 * that every replica reports the same: the absolute difference of the wallets in discrepancy per
 * chain and token (0 when they agree), how many they are, and how old the run is.
 */
export const reconciliationGauges = (
  base: Metrics,
  db: Knex,
  registry: ChainRegistry,
  series: { difference: SeriesName; discrepancies: SeriesName; age: SeriesName },
): void => {
  let latest: ReturnType<typeof latestDiscrepancyTotals> | undefined;
  let readAt = 0;
  // One query per scrape for the three series.
  const read = () => {
    if (!latest || Date.now() - readAt > 1_000) {
      latest = latestDiscrepancyTotals(db).catch(() => undefined);
      readAt = Date.now();
    }
    return latest;
  };
  const perToken = (spec: {
    name: string;
    help: string;
    pick: (r: { units: bigint; wallets: number }) => number;
  }) =>
    new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: ['chain', 'token'],
      registers: [base.registry],
      async collect() {
        const totals = await read();
        if (!totals) return;
        this.reset();
        for (const chain of registry.chains) {
          for (const token of Object.keys(chain.tokens)) this.set({ chain: chain.name, token }, 0);
        }
        for (const r of totals.rows) this.set({ chain: r.blockchain, token: r.token }, spec.pick(r));
      },
    });
  perToken({ ...series.difference, pick: (r) => Number(r.units) });
  perToken({ ...series.discrepancies, pick: (r) => r.wallets });
  new Gauge({
    ...series.age,
    registers: [base.registry],
    async collect() {
      const totals = await read();
      if (totals) this.set(totals.ageSeconds);
    },
  });
};
