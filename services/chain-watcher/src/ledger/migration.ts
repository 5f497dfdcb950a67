import type { Knex } from 'knex';
import type { Migration } from '@stablepay/platform';
import { ts, units } from '../migrations/columns.js';

export const LEDGER_JOURNALS = 'ledger_journals';
export const LEDGER_ENTRIES = 'ledger_entries';
export const LEDGER_BALANCES = 'ledger_balances';
export const RECONCILIATION_RUNS = 'reconciliation_runs';
export const RECONCILIATION_WALLETS = 'reconciliation_wallets';

/** Journals and their entries: append-only, so the history is never rewritten. */
const createJournals = async (db: Knex): Promise<void> => {
  await db.schema.createTable(LEDGER_JOURNALS, (t) => {
    t.uuid('id').primary();
    // What the movement is, once: `transfer-in:<chain>:<tx>:<log index>`, `transfer:<idempotency key>`…
    t.text('key').notNullable().unique({ indexName: 'ledger_journals_key' });
    t.text('type').notNullable();
    t.uuid('merchant_id').notNullable();
    t.integer('chain_id').notNullable();
    t.text('blockchain').notNullable();
    t.text('token').notNullable();
    t.text('wallet_address').notNullable();
    t.text('tx_hash');
    t.bigInteger('block_number');
    t.integer('log_index');
    t.uuid('payment_id');
    t.uuid('refund_id');
    t.uuid('withdrawal_id');
    t.text('description');
    ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable(LEDGER_ENTRIES, (t) => {
    t.bigIncrements('seq').primary();
    t.uuid('id').notNullable().unique({ indexName: 'ledger_entries_id_key' });
    t.uuid('journal_id').notNullable().references('id').inTable(LEDGER_JOURNALS);
    t.uuid('merchant_id').notNullable();
    t.integer('chain_id').notNullable();
    t.text('token').notNullable();
    t.text('wallet_address').notNullable();
    t.text('account').notNullable();
    units(t, 'amount').notNullable();
    units(t, 'balance_after').notNullable();
    t.bigInteger('block_number');
    ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
  });
  await db.raw(
    `create index ledger_entries_account_idx on ${LEDGER_ENTRIES} (chain_id, token, wallet_address, account, block_number)`,
  );
  await db.raw(`create index ledger_entries_merchant_idx on ${LEDGER_ENTRIES} (merchant_id, account, seq)`);
  await db.raw(`create index ledger_journals_payment_idx on ${LEDGER_JOURNALS} (payment_id)`);
};

const createBalances = async (db: Knex): Promise<void> => {
  // The running balance of each account, locked while a journal is appended so that
  // balance_after is exact whatever appends race.
  await db.schema.createTable(LEDGER_BALANCES, (t) => {
    t.integer('chain_id').notNullable();
    t.text('token').notNullable();
    t.text('wallet_address').notNullable();
    t.text('account').notNullable();
    t.uuid('merchant_id').notNullable();
    t.text('blockchain').notNullable();
    units(t, 'balance').notNullable().defaultTo(0);
    ts(t, 'updated_at').notNullable().defaultTo(db.fn.now());
    t.primary(['chain_id', 'token', 'wallet_address', 'account']);
  });
};

const createReconciliations = async (db: Knex): Promise<void> => {
  // A comparison of every merchant wallet's ledger balance with balanceOf at one block per chain.
  await db.schema.createTable(RECONCILIATION_RUNS, (t) => {
    t.uuid('id').primary();
    ts(t, 'checked_at').notNullable();
    ts(t, 'finished_at');
    t.text('status').notNullable().defaultTo('running');
    t.integer('wallets').notNullable().defaultTo(0);
    t.integer('discrepancies').notNullable().defaultTo(0);
    t.integer('errors').notNullable().defaultTo(0);
    t.check(`status in ('running', 'complete')`, [], 'reconciliation_runs_status_check');
  });
  await db.schema.createTable(RECONCILIATION_WALLETS, (t) => {
    t.uuid('run_id').notNullable().references('id').inTable(RECONCILIATION_RUNS).onDelete('cascade');
    t.uuid('merchant_id').notNullable();
    t.integer('chain_id').notNullable();
    t.text('blockchain').notNullable();
    t.text('token').notNullable();
    t.text('address').notNullable();
    t.bigInteger('block_number');
    units(t, 'ledger_balance');
    units(t, 'onchain_balance');
    units(t, 'difference');
    // agrees | in_flight (a movement of the wallet is still being recorded) | discrepancy | unreadable
    t.text('status').notNullable();
    t.text('error');
    t.primary(['run_id', 'chain_id', 'token', 'address']);
  });
  await db.raw(
    `create index reconciliation_wallets_merchant_idx on ${RECONCILIATION_WALLETS} (merchant_id, run_id)`,
  );
  await db.raw(`create index reconciliation_runs_checked_idx on ${RECONCILIATION_RUNS} (checked_at desc)`);
};

/**
 * The merchants' ledger: one journal per money movement (a payment received, a refund or a
 * withdrawal sent, a transfer nobody claimed, its later attribution), each with two or more entries
 * that sum to zero (double entry). Accounts are kept per merchant wallet, chain and token; the
 * `wallet` account is the token balance the chain shows, the others say whose money it is.
 * Nothing is ever updated or deleted: a correction is a new journal.
 */
export const ledgerMigration: Migration = {
  name: '0008_ledger',
  async up(db) {
    await createJournals(db);
    await createBalances(db);
    await createReconciliations(db);
  },
};
