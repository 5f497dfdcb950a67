import type { Knex } from 'knex';
import type { Migration } from '@stablepay/platform';
import { signedTransactionColumns, ts, units } from './columns.js';
import { RELAYER_NONCES, TRANSFERS, TRANSFER_ATTEMPTS } from './tables.js';

const createTransfers = async (db: Knex): Promise<void> => {
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
};

const createTransferAttempts = async (db: Knex): Promise<void> => {
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
    signedTransactionColumns(t, db);
    t.primary(['transfer_id', 'attempt']);
    t.unique(['chain_id', 'tx_hash'], { indexName: 'transfer_attempts_tx_key' });
    t.check(`kind in ('first', 'replacement', 'renonce')`, [], 'transfer_attempts_kind_check');
    t.check(`action in ('transfer', 'cancel')`, [], 'transfer_attempts_action_check');
  });
  await db.raw(
    `create index transfer_attempts_nonce_idx on ${TRANSFER_ATTEMPTS} (chain_id, relayer_address, relayer_nonce)`,
  );
};

const createRelayerNonces = async (db: Knex): Promise<void> => {
  // The next nonce of each relayer, allocated under a row lock so replicas never share one.
  await db.schema.createTable(RELAYER_NONCES, (t) => {
    t.integer('chain_id').notNullable();
    t.text('relayer_address').notNullable();
    t.bigInteger('next_nonce').notNullable();
    ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
    t.primary(['chain_id', 'relayer_address']);
  });
};

export const transfersMigration: Migration = {
  name: '0004_transfers',
  async up(db) {
    await createTransfers(db);
    await createTransferAttempts(db);
    await createRelayerNonces(db);
  },
};
