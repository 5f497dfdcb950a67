import type { Migration } from '@stablepay/platform';
import { PAYMENTS } from './tables.js';

/**
 * What a cross-chain payment's crossing cost (amount burned − amount that reached the merchant
 * wallet), kept beside received_amount so the merchant sees both figures the chain showed.
 */
export const cctpFeeMigration: Migration = {
  name: '0010_payment_cctp_fee_amount',
  async up(db) {
    await db.schema.alterTable(PAYMENTS, (t) => {
      t.decimal('cctp_fee_amount', 20, 6);
    });
  },
};

/**
 * Why a payment failed when the chain did not bear its report out: such a report never owned its
 * transaction, so it blocks no later report that the chain does bear out. (An underpayment with
 * nothing received is one too; one with money received keeps the transaction, whose money it
 * holds for a refund.)
 */
export const REFUTED_FAILURES = [
  'wrong_recipient',
  'wrong_sender',
  'wrong_token',
  'chain_mismatch',
  'tx_not_found',
  'tx_reverted',
  'already_claimed',
  'burn_not_found',
  'burn_reverted',
  'not_a_burn',
  'wrong_domain',
] as const;

/** SQL: the payment row is a report the chain refuted. */
export const REFUTED_SQL = `(status = 'failed' and (failure_reason in (${REFUTED_FAILURES.map((r) => `'${r}'`).join(', ')}) or (failure_reason = 'underpaid' and coalesce(received_amount, 0) = 0)))`;

/**
 * A transaction is one payment per merchant, but only while the chain has not refuted it: the first
 * report no longer binds the hash, so a stranger's report (under another merchant, or with the wrong
 * sender) cannot keep the payer's genuine one out. Which of several pending reports the transfer
 * pays is the chain's to say (the chain-watcher lets one payment claim a transaction).
 */
export const txOwnershipMigration: Migration = {
  name: '0011_payment_tx_hash_per_merchant',
  async up(db) {
    await db.raw(`alter table ${PAYMENTS} drop constraint if exists payments_tx_hash_key`);
    await db.raw(`drop index if exists payments_tx_hash_key`);
    await db.raw(
      `create unique index payments_tx_hash_key on ${PAYMENTS} (tx_hash, merchant_id) where not ${REFUTED_SQL}`,
    );
    await db.raw(`create index payments_tx_hash_idx on ${PAYMENTS} (tx_hash)`);
  },
};
