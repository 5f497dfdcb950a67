import {
  alterTableMigration,
  inboxMigration,
  outboxMigration,
  timestampMs,
  type Migration,
} from '@stablepay/platform';
import { sessionListMigration } from './session-list-migration.js';
import { sessionRequestKeysMigration } from './session-request-keys-migration.js';
import { cctpFeeMigration, txOwnershipMigration } from './received-money-migration.js';
import { topUpsMigration } from './top-ups-migration.js';
import { gaslessMigration } from './gasless-migration.js';
import { customerLanguageMigration } from './customer-language-migration.js';
import { merchantSettingsMigration } from './merchant-settings-migration.js';

import { CHECKOUT_SESSIONS, FEE_QUOTE_USES, MERCHANTS, PAYMENTS, PAYMENT_STATUS_CHANGES } from './tables.js';

export { CHECKOUT_SESSIONS, FEE_QUOTE_USES, MERCHANTS, PAYMENTS, PAYMENT_STATUS_CHANGES };

const PAYMENT_STATUSES = [
  'pending',
  'pending_attestation',
  'ready_to_mint',
  'minted_pending_transfer',
  'completed',
  'failed',
];

const merchantsMigration: Migration = {
  name: '0001_merchants',
  async up(db) {
    // A projection of the gateway's merchants (merchant.created, wallet.assigned).
    await db.schema.createTable(MERCHANTS, (t) => {
      t.uuid('merchant_id').primary();
      t.text('public_id').notNullable().unique();
      t.text('name').notNullable();
      t.text('blockchain').notNullable();
      t.jsonb('accepted_currencies').notNullable();
      t.uuid('wallet_id');
      t.text('wallet_address');
      t.text('wallet_blockchain');
      t.integer('wallet_chain_id');
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'updated_at').notNullable().defaultTo(db.fn.now());
    });
  },
};

const paymentsMigration: Migration = {
  name: '0002_payments',
  async up(db) {
    await db.schema.createTable(PAYMENTS, (t) => {
      t.uuid('id').primary();
      t.uuid('merchant_id').notNullable();
      // Stored lower-case: the same transaction is always the same payment.
      t.text('tx_hash').notNullable().unique({ indexName: 'payments_tx_hash_key' });
      t.decimal('amount', 20, 6).notNullable();
      t.decimal('expected_amount', 20, 6);
      t.decimal('received_amount', 20, 6);
      t.text('currency').notNullable();
      t.text('status').notNullable();
      t.text('from_address').notNullable();
      t.text('to_address').notNullable();
      t.text('source_chain').notNullable();
      t.integer('source_chain_id').notNullable();
      t.text('destination_chain');
      t.integer('destination_chain_id');
      t.boolean('is_cross_chain').notNullable();
      t.text('bridge_provider');
      t.text('burn_tx_hash');
      t.text('mint_tx_hash');
      t.text('cctp_message_hash');
      t.text('cctp_attestation_status');
      t.text('merchant_transfer_tx_hash');
      t.jsonb('fee_quote');
      t.text('session_id');
      t.text('customer_email').notNullable();
      t.text('reference');
      t.text('description');
      t.jsonb('metadata').notNullable().defaultTo('{}');
      t.text('failure_reason');
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'completed_at');
      t.check(`status in (${PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ')})`, [], 'payments_status_check');
    });
    await db.raw(
      `create index payments_merchant_created_idx on ${PAYMENTS} (merchant_id, created_at desc, id)`,
    );
    // A session produces at most one payment; a failed one releases it for another attempt.
    await db.raw(
      `create unique index payments_session_key on ${PAYMENTS} (session_id) where session_id is not null and status <> 'failed'`,
    );
  },
};

const checkoutSessionsMigration: Migration = {
  name: '0003_checkout_sessions',
  async up(db) {
    await db.schema.createTable(CHECKOUT_SESSIONS, (t) => {
      t.text('id').primary();
      t.uuid('merchant_id').notNullable();
      t.text('status').notNullable().defaultTo('open');
      // null: the customer chooses the amount
      t.decimal('amount', 20, 6);
      t.text('currency').notNullable();
      t.text('return_url').notNullable();
      t.text('cancel_url');
      t.jsonb('metadata').notNullable().defaultTo('{}');
      t.uuid('payment_id');
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'expires_at').notNullable();
      timestampMs(t, 'completed_at');
      timestampMs(t, 'expired_at');
      t.check(`status in ('open', 'complete', 'expired')`, [], 'checkout_sessions_status_check');
    });
    await db.raw(
      `create index checkout_sessions_open_expiry_idx on ${CHECKOUT_SESSIONS} (expires_at) where status = 'open' and payment_id is null`,
    );
  },
};

// failure_reason holds a documented code; the sentence explaining it goes here.
const failureDetailMigration = alterTableMigration('0004_payment_failure_detail', PAYMENTS, (t) => {
  t.text('failure_detail');
});

const feeQuoteUsesMigration: Migration = {
  name: '0005_fee_quote_uses',
  async up(db) {
    // A signed fee quote pays for one payment: the row is written in the payment's transaction.
    // valid_until lets rows of long-expired quotes be pruned (an expired quote is refused anyway).
    await db.schema.createTable(FEE_QUOTE_USES, (t) => {
      t.text('signature').primary({ constraintName: 'fee_quote_uses_pkey' });
      t.uuid('payment_id').notNullable();
      timestampMs(t, 'valid_until').notNullable();
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
    });
  },
};

// When the paying transfer was mined (its block's timestamp, from the verdict): a session linked
// after the fact is paid only by a transfer made after the session was created.
const minedAtMigration = alterTableMigration('0006_payment_mined_at', PAYMENTS, (t) => {
  timestampMs(t, 'mined_at');
});

const statusChangesMigration: Migration = {
  name: '0007_payment_status_changes',
  async up(db) {
    // Every status a payment entered after `pending` (it is created pending), written by the
    // transition's own statement: the payment's history as it happened, not as its timestamps tell it.
    await db.schema.createTable(PAYMENT_STATUS_CHANGES, (t) => {
      t.bigIncrements('id');
      t.uuid('payment_id').notNullable().references('id').inTable(PAYMENTS).onDelete('CASCADE');
      t.text('status').notNullable();
      timestampMs(t, 'changed_at').notNullable().defaultTo(db.fn.now());
    });
    await db.raw(
      `create index payment_status_changes_payment_idx on ${PAYMENT_STATUS_CHANGES} (payment_id, id)`,
    );
    // Payments moved before this table existed keep the one change their row still shows.
    await db.raw(
      `insert into ${PAYMENT_STATUS_CHANGES} (payment_id, status, changed_at)
       select id, status, coalesce(completed_at, updated_at) from ${PAYMENTS} where status <> 'pending'`,
    );
  },
};

/** In order; each runs once per database. */
export const paymentsMigrations: Migration[] = [
  outboxMigration,
  inboxMigration,
  merchantsMigration,
  paymentsMigration,
  checkoutSessionsMigration,
  failureDetailMigration,
  feeQuoteUsesMigration,
  minedAtMigration,
  statusChangesMigration,
  sessionRequestKeysMigration,
  sessionListMigration,
  cctpFeeMigration,
  txOwnershipMigration,
  topUpsMigration,
  gaslessMigration,
  merchantSettingsMigration,
  customerLanguageMigration,
];
