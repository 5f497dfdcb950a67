import type { Migration } from '@stablepay/platform';
import { PAYMENTS } from './migrations.js';

/**
 * What the chain showed reached the merchant wallet: the refund ceiling. Rows projected before it
 * was kept have none, and are held to their amount as before.
 */
export const receivedAmountMigration: Migration = {
  name: '0006_refundable_received_amount',
  async up(db) {
    await db.schema.alterTable(PAYMENTS, (t) => {
      t.decimal('received_amount', 20, 6);
    });
  },
};
