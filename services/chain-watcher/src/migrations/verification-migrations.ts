import type { Migration } from '@stablepay/platform';
import { reportedTransactionColumns, ts, units, verdictColumns, verdictIndexes } from './columns.js';
import { CHAIN_CURSORS, TX_CLAIMS, UNCLAIMED_TRANSFERS, VERIFICATIONS } from './tables.js';

export const verificationMigration: Migration = {
  name: '0002_verification',
  async up(db) {
    // A same-chain payment to verify; the row is the durable to-do item the workers lease.
    await db.schema.createTable(VERIFICATIONS, (t) => {
      t.uuid('payment_id').primary();
      reportedTransactionColumns(t);
      units(t, 'expected_units').notNullable();
      ts(t, 'session_created_at');
      ts(t, 'payment_created_at').notNullable();
      verdictColumns(t, db);
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'decided_at');
      t.check(`status in ('pending', 'verified', 'rejected')`, [], 'verifications_status_check');
    });
    await verdictIndexes(db, VERIFICATIONS);
    // A transaction pays for one payment: the first verified claim holds it for good.
    await db.schema.createTable(TX_CLAIMS, (t) => {
      t.integer('chain_id').notNullable();
      t.text('tx_hash').notNullable();
      t.uuid('payment_id').notNullable();
      ts(t, 'claimed_at').notNullable().defaultTo(db.fn.now());
      t.primary(['chain_id', 'tx_hash']);
    });
  },
};

export const scannerMigration: Migration = {
  name: '0003_scanner',
  async up(db) {
    await db.schema.createTable(CHAIN_CURSORS, (t) => {
      t.integer('chain_id').primary();
      t.text('blockchain').notNullable();
      t.bigInteger('last_scanned_block').notNullable();
      ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
    });
    await db.schema.createTable(UNCLAIMED_TRANSFERS, (t) => {
      t.uuid('id').primary();
      t.integer('chain_id').notNullable();
      t.text('blockchain').notNullable();
      t.text('tx_hash').notNullable();
      t.integer('log_index').notNullable();
      t.text('token').notNullable();
      t.text('token_address').notNullable();
      t.text('from_address').notNullable();
      t.text('to_address').notNullable();
      units(t, 'amount_units').notNullable();
      t.bigInteger('block_number').notNullable();
      t.text('block_hash').notNullable();
      t.uuid('wallet_id').notNullable();
      t.uuid('merchant_id').notNullable();
      t.text('status').notNullable().defaultTo('unclaimed');
      t.uuid('matched_payment_id');
      ts(t, 'detected_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'matched_at');
      t.unique(['chain_id', 'tx_hash', 'log_index'], { indexName: 'unclaimed_transfers_log_key' });
      t.check(`status in ('unclaimed', 'matched')`, [], 'unclaimed_transfers_status_check');
    });
    await db.raw(
      `create index unclaimed_transfers_open_idx on ${UNCLAIMED_TRANSFERS} (merchant_id, detected_at) where status = 'unclaimed'`,
    );
  },
};
