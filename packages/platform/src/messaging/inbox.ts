import type { Knex } from 'knex';
import type { Migration } from '../db/database.js';

export const INBOX_TABLE = 'inbox';

export const inboxMigration: Migration = {
  name: '0000_inbox',
  async up(db) {
    await db.schema.createTable(INBOX_TABLE, (t) => {
      t.text('consumer').notNullable();
      t.uuid('message_id').notNullable();
      t.text('type').notNullable();
      t.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.primary(['consumer', 'message_id']);
    });
  },
};

/**
 * Records that `consumer` handled `messageId`, inside the transaction that applies the effect.
 * Returns false when it was already recorded (a redelivery): the caller then does nothing. A
 * concurrent duplicate waits on the first transaction and then sees the row: no check-then-insert.
 */
export const claimInbox = async (
  trx: Knex.Transaction,
  consumer: string,
  messageId: string,
  type: string,
): Promise<boolean> => {
  const rows = await trx(INBOX_TABLE)
    .insert({ consumer, message_id: messageId, type })
    .onConflict(['consumer', 'message_id'])
    .ignore()
    .returning('message_id');
  return rows.length === 1;
};
