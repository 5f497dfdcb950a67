import type { Migration } from '@stablepay/platform';
import { PAYMENTS } from './migrations.js';

/**
 * What a cross-chain payment's crossing cost (amount burned − amount that reached the merchant
 * wallet), kept beside received_amount so the merchant sees both figures the chain showed.
 */
export const cctpFeeMigration: Migration = {
  name: '0010_payment_cctp_fee_amount',
  async up(db) {
    await db.schema.alterTable(PAYMENTS, (t) => {
      t.decimal('cctp_fee_amount', 20, 6);
    });
  },
};
