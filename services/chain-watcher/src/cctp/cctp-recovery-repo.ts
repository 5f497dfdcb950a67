import type { Knex } from 'knex';
import { CCTP_PAYMENTS } from '../migrations/tables.js';
import { recoverStaleRows } from '../work-rows/recover-stale-rows.js';

/**
 * Cross-chain payments in an open step that nobody looked at for `staleMs` (a back-off that grew
 * long, a worker that died holding the lease) are made due again. Returns how many.
 */
export const recoverStaleCctp = (db: Knex, staleMs: number): Promise<number> =>
  recoverStaleRows(db, {
    table: CCTP_PAYMENTS,
    key: 'payment_id',
    open: "step not in ('done', 'failed')",
    touchedAt: 'updated_at',
    staleMs,
  });
