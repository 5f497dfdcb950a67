import type { Migration } from '@stablepay/platform';
import { CHECKOUT_SESSIONS } from './tables.js';

/** The merchant's sessions, newest first (GET /checkout/sessions), without reading every session. */
export const sessionListMigration: Migration = {
  name: '0009_checkout_sessions_by_merchant',
  async up(db) {
    await db.raw(
      `create index checkout_sessions_merchant_created_idx on ${CHECKOUT_SESSIONS} (merchant_id, created_at desc, id desc)`,
    );
  },
};
