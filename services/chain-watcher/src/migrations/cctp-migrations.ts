import type { Migration } from '@stablepay/platform';
import { relayTransactionColumns, ts, units } from './columns.js';
import { CCTP_PAYMENTS, CCTP_RELAY_TRANSACTIONS } from './tables.js';

export const cctpMigration: Migration = {
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

export const cctpRelayerMigration: Migration = {
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
      relayTransactionColumns(t, db);
      t.primary(['payment_id', 'action', 'attempt']);
      t.unique(['chain_id', 'tx_hash'], { indexName: 'cctp_relay_transactions_tx_key' });
      t.check(`action in ('mint', 'transfer')`, [], 'cctp_relay_transactions_action_check');
      t.check(`kind in ('first', 'replacement', 'renonce')`, [], 'cctp_relay_transactions_kind_check');
    });
  },
};
