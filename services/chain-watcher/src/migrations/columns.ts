import type { Knex } from 'knex';

/** Millisecond precision, so a timestamp that went out as JSON compares equal when it comes back. */
export const ts = (t: Knex.CreateTableBuilder, name: string) =>
  t.timestamp(name, { useTz: true, precision: 3 });
/** Token amounts in base units: uint256 fits in 78 decimal digits. */
export const units = (t: Knex.CreateTableBuilder, name: string) => t.decimal(name, 78, 0);

/** A signed relayer transaction and its broadcast, as both relayer transaction tables store them. */
export const signedTransactionColumns = (t: Knex.CreateTableBuilder, db: Knex): void => {
  t.text('tx_hash').notNullable();
  t.text('raw_tx').notNullable();
  units(t, 'gas_limit').notNullable();
  units(t, 'max_fee_per_gas');
  units(t, 'max_priority_fee_per_gas');
  units(t, 'gas_price');
  ts(t, 'signed_at').notNullable().defaultTo(db.fn.now());
  ts(t, 'broadcast_at');
  t.text('last_broadcast_error');
};

/**
 * A relay transaction of one payment: its action, the attempt and its kind, the relayer's nonce on the
 * chain it is sent to, then the signed transaction (both relay transaction tables, after their
 * payment_id).
 */
export const relayTransactionColumns = (t: Knex.CreateTableBuilder, db: Knex): void => {
  t.text('action').notNullable();
  t.integer('attempt').notNullable();
  t.text('kind').notNullable();
  t.integer('chain_id').notNullable();
  t.text('relayer_address').notNullable();
  t.bigInteger('relayer_nonce').notNullable();
  t.text('to_address').notNullable();
  signedTransactionColumns(t, db);
};

/** The verdict on a reported transaction and the schedule of its checks (payments and top-ups). */
export const verdictColumns = (t: Knex.CreateTableBuilder, db: Knex): void => {
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
};

/** Who reported which transaction, on which chain and token, between which addresses. */
export const reportedTransactionColumns = (t: Knex.CreateTableBuilder): void => {
  t.uuid('merchant_id').notNullable();
  t.text('tx_hash').notNullable();
  t.integer('chain_id').notNullable();
  t.text('source_chain').notNullable();
  t.text('token').notNullable();
  t.text('from_address').notNullable();
  t.text('to_address').notNullable();
};

/** The due rows the verifiers lease, and the look-up of a transaction's rows (`<table>_due_idx`, `<table>_tx_idx`). */
export const verdictIndexes = async (db: Knex, table: string): Promise<void> => {
  await db.raw(`create index ${table}_due_idx on ${table} (next_check_at) where status = 'pending'`);
  await db.raw(`create index ${table}_tx_idx on ${table} (chain_id, tx_hash)`);
};
