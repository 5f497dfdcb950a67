import type { Knex } from 'knex';
import type { Migration } from '@stablepay/platform';
import { relayTransactionColumns, ts, units } from '../migrations/columns.js';
import {
  GASLESS_GAS_QUOTES,
  GASLESS_GAS_USAGE,
  GASLESS_PAYMENTS,
  GASLESS_RELAY_TRANSACTIONS,
} from '../migrations/tables.js';

/** The relay's transactions, and its gas per merchant and day. */
const createRelayTables = async (db: Knex): Promise<void> => {
  // The relay's transactions submitting one authorization, signed and stored before they are
  // broadcast (as transfer_attempts and cctp_relay_transactions are), nonces from relayer_nonces.
  await db.schema.createTable(GASLESS_RELAY_TRANSACTIONS, (t) => {
    t.uuid('payment_id').notNullable().references('payment_id').inTable(GASLESS_PAYMENTS);
    relayTransactionColumns(t, db);
    t.primary(['payment_id', 'attempt']);
    t.unique(['chain_id', 'tx_hash'], { indexName: 'gasless_relay_transactions_tx_key' });
    t.check(`action in ('submit')`, [], 'gasless_relay_transactions_action_check');
    t.check(`kind in ('first', 'replacement', 'renonce')`, [], 'gasless_relay_transactions_kind_check');
  });
  // The relay's gas per merchant, chain and UTC day: reserved for submissions not settled yet, and
  // spent by those settled. The daily budget is checked against their sum.
  await db.schema.createTable(GASLESS_GAS_USAGE, (t) => {
    t.uuid('merchant_id').notNullable();
    t.integer('chain_id').notNullable();
    t.date('day').notNullable();
    units(t, 'reserved_wei').notNullable().defaultTo(0);
    units(t, 'spent_wei').notNullable().defaultTo(0);
    ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
    t.primary(['merchant_id', 'chain_id', 'day']);
  });
  // The gas a successful check priced for an authorization: what the payment reserves when it arrives.
  await db.schema.createTable(GASLESS_GAS_QUOTES, (t) => {
    t.integer('chain_id').notNullable();
    t.text('from_address').notNullable();
    t.text('nonce').notNullable();
    units(t, 'gas_wei').notNullable();
    ts(t, 'checked_at').notNullable().defaultTo(db.fn.now());
    t.primary(['chain_id', 'from_address', 'nonce']);
  });
};

export const gaslessMigration: Migration = {
  name: '0011_gasless',
  async up(db) {
    // One row per gasless payment: the customer's signed authorization, exactly as it is submitted,
    // and how far its submission got. Once the transaction that used the authorization is found, the
    // payment is handed to the verifications table and judged like any same-chain payment.
    await db.schema.createTable(GASLESS_PAYMENTS, (t) => {
      t.uuid('payment_id').primary();
      t.uuid('merchant_id').notNullable();
      t.integer('chain_id').notNullable();
      t.text('source_chain').notNullable();
      t.text('token').notNullable();
      t.text('from_address').notNullable();
      t.text('to_address').notNullable();
      units(t, 'value').notNullable();
      t.bigInteger('valid_after').notNullable();
      t.bigInteger('valid_before').notNullable();
      t.text('nonce').notNullable();
      t.text('signature').notNullable();
      // What the Transfer must deliver to the merchant wallet: the amount plus the fees the customer bears.
      units(t, 'expected_units').notNullable();
      t.text('fee_bearer').notNullable();
      units(t, 'network_fee_units').notNullable();
      units(t, 'cctp_fee_units').notNullable();
      t.integer('destination_chain_id');
      ts(t, 'session_created_at');
      ts(t, 'payment_created_at').notNullable();
      t.text('step').notNullable().defaultTo('submit');
      // Where a search for the AuthorizationUsed log starts: about the head when the payment arrived.
      t.bigInteger('search_from_block');
      t.text('relayed_tx_hash');
      t.text('used_tx_hash');
      t.text('failure_detail');
      // The gas reserved against the merchant's daily budget (on budget_day) until the submission settles.
      units(t, 'reserved_wei').notNullable().defaultTo(0);
      // The UTC day as YYYY-MM-DD text: a pg date would come back as a local-time Date.
      t.text('budget_day').notNullable();
      units(t, 'gas_spent_wei');
      ts(t, 'next_check_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'locked_until');
      t.integer('backoff_step').notNullable().defaultTo(0);
      t.integer('check_count').notNullable().defaultTo(0);
      t.text('correlation_id');
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
      ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      t.check(`step in ('submit', 'handed_over', 'rejected')`, [], 'gasless_payments_step_check');
    });
    await db.raw(
      `create index gasless_payments_due_idx on ${GASLESS_PAYMENTS} (next_check_at) where step = 'submit'`,
    );
    await db.raw(
      `create index gasless_payments_authorization_idx on ${GASLESS_PAYMENTS} (chain_id, from_address, nonce)`,
    );
    await createRelayTables(db);
  },
};
