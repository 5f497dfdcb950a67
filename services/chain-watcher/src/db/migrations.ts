import type { Knex } from 'knex';
import { inboxMigration, outboxMigration, type Migration } from '@stablepay/platform';

export const MASTER_SEED = 'master_seed';
export const WALLETS = 'wallets';
export const VERIFICATIONS = 'verifications';
export const TX_CLAIMS = 'tx_claims';
export const UNCLAIMED_TRANSFERS = 'unclaimed_transfers';
export const CHAIN_CURSORS = 'chain_cursors';

/** Millisecond precision, so a timestamp that went out as JSON compares equal when it comes back. */
const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true, precision: 3 });
/** Token amounts in base units: uint256 fits in 78 decimal digits. */
const units = (t: Knex.CreateTableBuilder, name: string) => t.decimal(name, 78, 0);

const custodyMigration: Migration = {
  name: '0001_custody',
  async up(db) {
    // One row: the master seed, sealed with AES-256-GCM under WALLET_KEK. The plaintext never lands here.
    await db.schema.createTable(MASTER_SEED, (t) => {
      t.smallint('id').primary();
      t.text('algorithm').notNullable();
      t.binary('ciphertext').notNullable();
      t.binary('iv').notNullable();
      t.binary('auth_tag').notNullable();
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
      t.check('id = 1', [], 'master_seed_single_row');
    });
    await db.schema.createTable(WALLETS, (t) => {
      t.uuid('id').primary();
      t.uuid('merchant_id').notNullable();
      t.boolean('is_primary').notNullable().defaultTo(true);
      t.text('address').notNullable();
      t.text('blockchain').notNullable();
      t.integer('chain_id').notNullable();
      t.text('derivation').notNullable();
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
    });
    await db.raw(`create unique index wallets_primary_key on ${WALLETS} (merchant_id) where is_primary`);
    await db.raw(`create index wallets_chain_idx on ${WALLETS} (chain_id)`);
  },
};

const verificationMigration: Migration = {
  name: '0002_verification',
  async up(db) {
    // A same-chain payment to verify; the row is the durable to-do item the workers lease.
    await db.schema.createTable(VERIFICATIONS, (t) => {
      t.uuid('payment_id').primary();
      t.uuid('merchant_id').notNullable();
      t.text('tx_hash').notNullable();
      t.integer('chain_id').notNullable();
      t.text('source_chain').notNullable();
      t.text('token').notNullable();
      t.text('from_address').notNullable();
      t.text('to_address').notNullable();
      units(t, 'expected_units').notNullable();
      ts(t, 'session_created_at');
      ts(t, 'payment_created_at').notNullable();
      t.text('status').notNullable().defaultTo('pending');
      t.text('reason');
      units(t, 'received_units');
      t.text('detail');
      // The block the transaction was last seen in: a different hash later means a reorg.
      t.bigInteger('block_number');
      t.text('block_hash');
      t.integer('check_count').notNullable().defaultTo(0);
      t.integer('backoff_step').notNullable().defaultTo(0);
      ts(t, 'next_check_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'locked_until');
      ts(t, 'last_checked_at');
      t.text('last_error');
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'decided_at');
      t.check(`status in ('pending', 'verified', 'rejected')`, [], 'verifications_status_check');
    });
    await db.raw(
      `create index verifications_due_idx on ${VERIFICATIONS} (next_check_at) where status = 'pending'`,
    );
    await db.raw(`create index verifications_tx_idx on ${VERIFICATIONS} (chain_id, tx_hash)`);
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

const scannerMigration: Migration = {
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

/** In order; each runs once per database. */
export const chainWatcherMigrations: Migration[] = [
  outboxMigration,
  inboxMigration,
  custodyMigration,
  verificationMigration,
  scannerMigration,
];
