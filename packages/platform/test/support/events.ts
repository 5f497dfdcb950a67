import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { buildEvent } from '../../src/messaging/outbox.js';
import type { Migration } from '../../src/db/database.js';

export const merchantCreated = () => {
  const merchantId = randomUUID();
  return buildEvent({
    type: 'merchant.created',
    producer: 'test',
    merchantId,
    data: {
      merchantId,
      publicId: `sp_live_${merchantId}`,
      name: 'Test shop',
      blockchain: 'BASE',
      acceptedCurrencies: ['USDC'],
      email: 'owner@example.com',
    },
  });
};

/** The consumer's effect in these tests: one row per merchant it heard of. */
export const effectsMigration: Migration = {
  name: '0001_effects',
  async up(db) {
    await db.schema.createTable('effects', (t) => {
      t.increments('id');
      t.uuid('merchant_id').notNullable();
    });
  },
};

export const countEffects = async (db: Knex, merchantId?: string): Promise<number> => {
  const q = db('effects').count<{ count: string }[]>('* as count');
  if (merchantId) q.where({ merchant_id: merchantId });
  const r = await q;
  return Number(r[0]!.count);
};
