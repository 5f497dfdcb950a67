import type { Migration } from '@stablepay/platform';
import { reportedTransactionColumns, ts, verdictColumns, verdictIndexes } from './columns.js';
import { TOP_UP_VERIFICATIONS } from './tables.js';

/**
 * A transaction a customer reported as the top-up of a payment that arrived short: checked like a
 * payment's transaction (leased, backed off, decided once), keyed by the payments service's top-up
 * id. What it moved is the payment's only when it claims the transaction (tx_claims).
 */
export const topUpVerificationsMigration: Migration = {
  name: '0010_top_up_verifications',
  async up(db) {
    await db.schema.createTable(TOP_UP_VERIFICATIONS, (t) => {
      t.uuid('top_up_id').primary();
      t.uuid('payment_id').notNullable();
      reportedTransactionColumns(t);
      ts(t, 'session_created_at');
      ts(t, 'reported_at').notNullable();
      verdictColumns(t, db);
      t.text('correlation_id');
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'decided_at');
      t.check(`status in ('pending', 'verified', 'rejected')`, [], 'top_up_verifications_status_check');
    });
    await verdictIndexes(db, TOP_UP_VERIFICATIONS);
  },
};
