import type { Migration } from '@stablepay/platform';

/**
 * The client's Idempotency-Key, forwarded by the gateway, and the fingerprint of the request it
 * named: a retry after an answer that never arrived (the gateway timed out, a replica died after
 * commit) finds the session it made instead of opening a second one.
 */
export const sessionRequestKeysMigration: Migration = {
  name: '0008_checkout_session_request_keys',
  async up(db) {
    await db.schema.alterTable('checkout_sessions', (t) => {
      t.text('request_key');
      t.text('request_fingerprint');
    });
    await db.raw(
      `create unique index checkout_sessions_merchant_request_key_idx on checkout_sessions (merchant_id, request_key) where request_key is not null`,
    );
  },
};
