import type { Migration } from '@stablepay/platform';
import { REFUTED_SQL } from './received-money-migration.js';
import { PAYMENTS } from './tables.js';

/** The key that makes one signed authorization one payment (create-gasless is idempotent by it). */
export const PAYMENTS_AUTHORIZATION_KEY = 'payments_authorization_key';

/**
 * Gasless payments: the customer signs an EIP-3009 authorization and the relay submits it.
 * - `funding` says how the money moved; `signed_authorization` keeps what was signed, as the relay
 *   sends it.
 * - One authorization is one payment: (chain, payer, nonce) is unique, as FiatToken's own
 *   `authorizationState(from, nonce)` is, except for payments that failed (an authorization that
 *   expired unused may be signed again with the same derived nonce).
 * - The fees the quote priced, and who bears them, stay with the payment.
 * - Such a payment has no transaction until the relay sends one: its tx_hash is '' meanwhile, which
 *   must not count as a transaction every such payment of the merchant shares.
 */
export const gaslessMigration: Migration = {
  name: '0013_gasless_payments',
  async up(db) {
    await db.schema.alterTable(PAYMENTS, (t) => {
      t.text('funding').notNullable().defaultTo('transfer');
      t.jsonb('signed_authorization');
      t.text('authorization_nonce');
      t.decimal('network_fee', 20, 6);
      t.decimal('cctp_fee', 20, 6);
      t.text('fee_bearer');
      t.check(`funding in ('transfer', 'authorization')`, [], 'payments_funding_check');
    });
    await db.raw(
      `create unique index ${PAYMENTS_AUTHORIZATION_KEY} on ${PAYMENTS}
         (source_chain_id, lower(from_address), authorization_nonce)
         where authorization_nonce is not null and status <> 'failed'`,
    );
    // The per-payer rate limit counts a payer's recent gasless payments.
    await db.raw(
      `create index payments_gasless_payer_idx on ${PAYMENTS} (lower(from_address), created_at)
         where funding = 'authorization'`,
    );
    await db.raw(`drop index if exists payments_tx_hash_key`);
    await db.raw(
      `create unique index payments_tx_hash_key on ${PAYMENTS} (tx_hash, merchant_id)
         where tx_hash <> '' and not ${REFUTED_SQL}`,
    );
  },
};
