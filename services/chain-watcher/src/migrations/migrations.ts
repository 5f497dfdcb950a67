import type { Knex } from 'knex';
import { inboxMigration, outboxMigration, type Migration } from '@stablepay/platform';
import { ledgerBackfillMigration } from '../ledger/backfill.js';
import { ledgerMigration } from '../ledger/migration.js';
import { topUpVerificationsMigration } from './top-ups-migration.js';

export const MASTER_SEED = 'master_seed';
export const WALLETS = 'wallets';
export const VERIFICATIONS = 'verifications';
export const TX_CLAIMS = 'tx_claims';
export const UNCLAIMED_TRANSFERS = 'unclaimed_transfers';
export const CHAIN_CURSORS = 'chain_cursors';
export const TRANSFERS = 'transfers';
export const TRANSFER_ATTEMPTS = 'transfer_attempts';
export const RELAYER_NONCES = 'relayer_nonces';
export const CCTP_PAYMENTS = 'cctp_payments';
export const CCTP_RELAY_TRANSACTIONS = 'cctp_relay_transactions';

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

const transfersMigration: Migration = {
  name: '0004_transfers',
  async up(db) {
    // An outgoing transfer, one per idempotency key whatever the command's deliveries. Rows of an
    // invalid command are stored too (failed at once), so a repeat finds the known answer.
    await db.schema.createTable(TRANSFERS, (t) => {
      t.uuid('id').primary();
      t.text('idempotency_key').notNullable();
      t.text('purpose').notNullable();
      t.uuid('merchant_id').notNullable();
      t.text('blockchain').notNullable();
      t.integer('chain_id');
      t.text('token').notNullable();
      t.text('token_address');
      t.text('from_address');
      t.text('to_address').notNullable();
      t.text('amount').notNullable();
      units(t, 'amount_units');
      // EIP-3009: the nonce derives from the key; validBefore and the merchant's signature are
      // stored with the first relayer transaction and reused by every replacement.
      t.text('auth_nonce').notNullable();
      t.bigInteger('valid_before');
      t.text('auth_signature');
      t.text('status').notNullable().defaultTo('pending');
      t.text('failure_code');
      t.text('failure_reason');
      t.text('tx_hash');
      t.bigInteger('block_number');
      t.text('block_hash');
      // The head when the first transaction was signed: where a search for the nonce's use starts.
      t.bigInteger('search_from_block');
      ts(t, 'submitted_at');
      ts(t, 'next_check_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'locked_until');
      t.integer('backoff_step').notNullable().defaultTo(0);
      ts(t, 'rpc_failing_since');
      t.text('last_error');
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'completed_at');
      t.unique(['idempotency_key'], { indexName: 'transfers_idempotency_key' });
      t.check(
        `status in ('pending', 'sending', 'cancelling', 'confirmed', 'failed')`,
        [],
        'transfers_status_check',
      );
    });
    await db.raw(
      `create index transfers_due_idx on ${TRANSFERS} (next_check_at) where status in ('pending', 'sending', 'cancelling')`,
    );
    // Every relayer transaction signed for a transfer, stored before it is broadcast: a restart
    // re-broadcasts these exact bytes. Replacements share the nonce of the attempt they replace.
    await db.schema.createTable(TRANSFER_ATTEMPTS, (t) => {
      t.uuid('transfer_id').notNullable().references('id').inTable(TRANSFERS);
      t.integer('attempt').notNullable();
      t.text('kind').notNullable();
      // transfer: transferWithAuthorization; cancel: cancelAuthorization after a revert, so that the
      // authorization, public in the reverted calldata, can never execute later.
      t.text('action').notNullable();
      t.integer('chain_id').notNullable();
      t.text('relayer_address').notNullable();
      t.bigInteger('relayer_nonce').notNullable();
      t.text('tx_hash').notNullable();
      t.text('raw_tx').notNullable();
      units(t, 'gas_limit').notNullable();
      units(t, 'max_fee_per_gas');
      units(t, 'max_priority_fee_per_gas');
      units(t, 'gas_price');
      ts(t, 'signed_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'broadcast_at');
      t.text('last_broadcast_error');
      t.primary(['transfer_id', 'attempt']);
      t.unique(['chain_id', 'tx_hash'], { indexName: 'transfer_attempts_tx_key' });
      t.check(`kind in ('first', 'replacement', 'renonce')`, [], 'transfer_attempts_kind_check');
      t.check(`action in ('transfer', 'cancel')`, [], 'transfer_attempts_action_check');
    });
    await db.raw(
      `create index transfer_attempts_nonce_idx on ${TRANSFER_ATTEMPTS} (chain_id, relayer_address, relayer_nonce)`,
    );
    // The next nonce of each relayer, allocated under a row lock so replicas never share one.
    await db.schema.createTable(RELAYER_NONCES, (t) => {
      t.integer('chain_id').notNullable();
      t.text('relayer_address').notNullable();
      t.bigInteger('next_nonce').notNullable();
      ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      t.primary(['chain_id', 'relayer_address']);
    });
  },
};

const cctpMigration: Migration = {
  name: '0005_cctp_payments',
  async up(db) {
    // One row per cross-chain payment: what the burn must be, how far it got, and when to look again.
    await db.schema.createTable(CCTP_PAYMENTS, (t) => {
      t.uuid('payment_id').primary();
      t.uuid('merchant_id').notNullable();
      t.text('flow').notNullable();
      t.text('step').notNullable();
      t.integer('source_chain_id').notNullable();
      t.integer('destination_chain_id');
      t.text('burn_tx_hash').notNullable();
      t.text('mint_tx_hash');
      t.text('from_address').notNullable();
      units(t, 'expected_units').notNullable();
      // Facts learned on the way: the burn, the attested message and the mint.
      t.integer('burn_block');
      units(t, 'burned_units');
      t.text('message_nonce');
      t.text('message_hash');
      t.text('attestation_status');
      units(t, 'minted_units');
      t.integer('mint_block');
      t.text('failure_reason');
      t.text('failure_detail');
      ts(t, 'payment_created_at').notNullable();
      ts(t, 'next_check_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'locked_until');
      t.integer('backoff_step').notNullable().defaultTo(0);
      t.integer('check_count').notNullable().defaultTo(0);
      ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      t.check(`flow in ('bridge_kit', 'relayer')`, [], 'cctp_payments_flow_check');
      t.check(
        `step in ('burn', 'attestation', 'mint', 'transfer', 'done', 'failed')`,
        [],
        'cctp_payments_step_check',
      );
    });
    await db.raw(
      `create index cctp_payments_due_idx on ${CCTP_PAYMENTS} (next_check_at) where step not in ('done', 'failed')`,
    );
  },
};

const cctpRelayerMigration: Migration = {
  name: '0006_cctp_relayer',
  async up(db) {
    // The legacy relayer flow: the relay wallet the burn mints to, the merchant wallet it then pays,
    // the quote's amount for the merchant, and the attested message the relay submits.
    await db.schema.alterTable(CCTP_PAYMENTS, (t) => {
      units(t, 'merchant_receives_units');
      t.text('relay_address');
      t.text('merchant_address');
      ts(t, 'attestation_since');
      t.text('attested_message');
      t.text('attestation');
      // Where on the destination a search for the mint's MessageReceived log starts.
      t.bigInteger('mint_search_from');
      t.text('transfer_tx_hash');
      t.integer('transfer_block');
    });
    // Every relay transaction (the mint, the transfer to the merchant) signed and stored before it is
    // broadcast, as transfer_attempts are: a restart re-broadcasts these bytes. Nonces come from
    // relayer_nonces, shared with outgoing transfers, so the two never give one nonce twice.
    await db.schema.createTable(CCTP_RELAY_TRANSACTIONS, (t) => {
      t.uuid('payment_id').notNullable().references('payment_id').inTable(CCTP_PAYMENTS);
      t.text('action').notNullable();
      t.integer('attempt').notNullable();
      t.text('kind').notNullable();
      t.integer('chain_id').notNullable();
      t.text('relayer_address').notNullable();
      t.bigInteger('relayer_nonce').notNullable();
      t.text('to_address').notNullable();
      t.text('tx_hash').notNullable();
      t.text('raw_tx').notNullable();
      units(t, 'gas_limit').notNullable();
      units(t, 'max_fee_per_gas');
      units(t, 'max_priority_fee_per_gas');
      units(t, 'gas_price');
      ts(t, 'signed_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'broadcast_at');
      t.text('last_broadcast_error');
      t.primary(['payment_id', 'action', 'attempt']);
      t.unique(['chain_id', 'tx_hash'], { indexName: 'cctp_relay_transactions_tx_key' });
      t.check(`action in ('mint', 'transfer')`, [], 'cctp_relay_transactions_action_check');
      t.check(`kind in ('first', 'replacement', 'renonce')`, [], 'cctp_relay_transactions_kind_check');
    });
  },
};

/**
 * The correlation id of the request or message that created a row of background work, so that the
 * events and log lines of that work carry it on (a request's id follows a payment to its webhook).
 */
const correlationMigration: Migration = {
  name: '0007_correlation',
  async up(db) {
    for (const table of [VERIFICATIONS, TRANSFERS, CCTP_PAYMENTS]) {
      await db.schema.alterTable(table, (t) => {
        t.text('correlation_id');
      });
    }
  },
};

/** In order; each runs once per database. */
export const chainWatcherMigrations: Migration[] = [
  outboxMigration,
  inboxMigration,
  custodyMigration,
  verificationMigration,
  scannerMigration,
  transfersMigration,
  cctpMigration,
  cctpRelayerMigration,
  correlationMigration,
  ledgerMigration,
  ledgerBackfillMigration,
  topUpVerificationsMigration,
];
