import type { Migration } from '@stablepay/platform';
import { units } from './columns.js';
import { GASLESS_PAYMENTS, GASLESS_RELAY_TRANSACTIONS } from './tables.js';

/**
 * Cross-chain gasless payments: after the submission the relay approves (once per chain) and burns
 * through CCTP to the merchant wallet, then mints on the merchant's chain when nobody else does.
 * Each of those is its own series of relay transactions, numbered within its action.
 */
export const gaslessCrossChainMigration: Migration = {
  name: '0012_gasless_cross_chain',
  async up(db) {
    await db.raw(`alter table ${GASLESS_PAYMENTS} drop constraint gasless_payments_step_check`);
    await db.schema.alterTable(GASLESS_PAYMENTS, (t) => {
      t.check(
        `step in ('submit', 'burn', 'mint', 'handed_over', 'rejected')`,
        [],
        'gasless_payments_step_check',
      );
      // What the burn sends through CCTP and what the mint must deliver to the merchant wallet.
      units(t, 'burn_units');
      units(t, 'merchant_receives_units');
      t.text('burn_tx_hash');
      // The merchant wallet on the destination chain (cross-chain: the authorization pays the relay).
      t.text('merchant_address');
    });
    await db.raw(`create index gasless_payments_cross_chain_due_idx on ${GASLESS_PAYMENTS} (next_check_at)
      where step in ('burn', 'mint')`);
    await db.raw(`alter table ${GASLESS_RELAY_TRANSACTIONS} drop constraint gasless_relay_transactions_pkey`);
    await db.raw(
      `alter table ${GASLESS_RELAY_TRANSACTIONS} drop constraint gasless_relay_transactions_action_check`,
    );
    await db.schema.alterTable(GASLESS_RELAY_TRANSACTIONS, (t) => {
      t.primary(['payment_id', 'action', 'attempt']);
      t.check(
        `action in ('submit', 'approve', 'burn', 'mint')`,
        [],
        'gasless_relay_transactions_action_check',
      );
    });
  },
};
