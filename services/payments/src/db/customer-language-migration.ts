import type { Migration } from '@stablepay/platform';
import { PAYMENTS } from './tables.js';

/**
 * The language the customer paid in (the checkout page's: en, de, fr, es, it), carried on
 * payment.completed so the customer's e-mails speak it. Null for payments from before, and when the
 * page did not say: English.
 */
export const customerLanguageMigration: Migration = {
  name: '0015_payment_customer_language',
  async up(db) {
    await db.schema.alterTable(PAYMENTS, (t) => {
      t.text('customer_language');
    });
  },
};
