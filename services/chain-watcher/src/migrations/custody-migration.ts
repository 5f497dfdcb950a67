import type { Migration } from '@stablepay/platform';
import { ts } from './columns.js';
import { MASTER_SEED, WALLETS } from './tables.js';

export const custodyMigration: Migration = {
  name: '0001_custody',
  async up(db) {
    // One row: the master seed, sealed with AES-256-GCM under WALLET_KEK. The plaintext never lands here.
    await db.schema.createTable(MASTER_SEED, (t) => {
      t.smallint('id').primary();
      t.text('algorithm').notNullable();
      t.binary('ciphertext').notNullable();
      t.binary('iv').notNullable();
      t.binary('auth_tag').notNullable();
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
      t.check('id = 1', [], 'master_seed_single_row');
    });
    await db.schema.createTable(WALLETS, (t) => {
      t.uuid('id').primary();
      t.uuid('merchant_id').notNullable();
      t.boolean('is_primary').notNullable().defaultTo(true);
      t.text('address').notNullable();
      t.text('blockchain').notNullable();
      t.integer('chain_id').notNullable();
      t.text('derivation').notNullable();
      ts(t, 'created_at').notNullable().defaultTo(db.fn.now());
    });
    await db.raw(`create unique index wallets_primary_key on ${WALLETS} (merchant_id) where is_primary`);
    await db.raw(`create index wallets_chain_idx on ${WALLETS} (chain_id)`);
  },
};
