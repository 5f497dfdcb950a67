import type { Migration } from '@stablepay/platform';
import { CCTP_PAYMENTS, TRANSFERS, VERIFICATIONS } from './tables.js';

/**
 * The correlation id of the request or message that created a row of background work, so that the
 * events and log lines of that work carry it on (a request's id follows a payment to its webhook).
 */
export const correlationMigration: Migration = {
  name: '0007_correlation',
  async up(db) {
    for (const table of [VERIFICATIONS, TRANSFERS, CCTP_PAYMENTS]) {
      await db.schema.alterTable(table, (t) => {
        t.text('correlation_id');
      });
    }
  },
};
