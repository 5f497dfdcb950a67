import type { Migration } from '@stablepay/platform';
import { PAYMENTS } from './tables.js';

export const PAYMENT_TOP_UPS = 'payment_top_ups';

/**
 * A same-chain session payment that arrived short waits for the rest until its session expires
 * (`awaiting_top_up_until`, null when it awaits nothing). Each transaction the customer reports for
 * it is a top-up row: pending until the chain-watcher's verdict, then verified with what it moved,
 * or rejected with why. A transaction tops up one payment, once.
 */
export const topUpsMigration: Migration = {
  name: '0012_payment_top_ups',
  async up(db) {
    await db.schema.alterTable(PAYMENTS, (t) => {
      t.timestamp('awaiting_top_up_until', { useTz: true, precision: 3 });
    });
    await db.raw(
      `create index payments_awaiting_top_up_idx on ${PAYMENTS} (awaiting_top_up_until)
        where awaiting_top_up_until is not null`,
    );
    await db.schema.createTable(PAYMENT_TOP_UPS, (t) => {
      t.uuid('id').primary();
      t.uuid('payment_id').notNullable().references('id').inTable(PAYMENTS).onDelete('CASCADE');
      t.uuid('merchant_id').notNullable();
      t.text('tx_hash').notNullable().unique();
      t.text('status').notNullable().defaultTo('pending');
      t.decimal('received_amount', 20, 6);
      t.text('rejection_reason');
      t.text('rejection_detail');
      t.bigInteger('block_number');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(db.fn.now());
      t.timestamp('decided_at', { useTz: true, precision: 3 });
      t.check(`status in ('pending', 'verified', 'rejected')`, [], 'payment_top_ups_status_check');
    });
    await db.raw(`create index payment_top_ups_payment_idx on ${PAYMENT_TOP_UPS} (payment_id, created_at)`);
  },
};
