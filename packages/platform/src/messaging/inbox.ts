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

/** One message to record in a consumer's inbox. */
export interface InboxClaim {
  consumer: string;
  messageId: string;
  type: string;
}

// PostgreSQL answers a uuid in lower case, whatever case it was given in.
const claimKey = (c: Pick<InboxClaim, 'consumer' | 'messageId'>) =>
  `${c.consumer}\n${c.messageId.toLowerCase()}`;

/**
 * claimInbox for the messages of a batch, in one statement. Returns, per claim, whether it is new:
 * false for a message already recorded, and for a repeat of a message earlier in the same list
 * (only its first occurrence may have an effect). Rows go in in key order, so that two batches
 * sharing messages wait for each other in one order instead of deadlocking.
 */
export const claimInboxes = async (
  trx: Knex.Transaction,
  claims: readonly InboxClaim[],
): Promise<boolean[]> => {
  const distinct = new Map<string, InboxClaim>();
  for (const c of claims) if (!distinct.has(claimKey(c))) distinct.set(claimKey(c), c);
  if (distinct.size === 0) return [];
  const rows = [...distinct.values()]
    .sort((a, b) => (claimKey(a) < claimKey(b) ? -1 : 1))
    .map((c) => ({ consumer: c.consumer, message_id: c.messageId, type: c.type }));
  const inserted = (await trx(INBOX_TABLE)
    .insert(rows)
    .onConflict(['consumer', 'message_id'])
    .ignore()
    .returning(['consumer', 'message_id'])) as Array<{ consumer: string; message_id: string }>;
  const fresh = new Set(inserted.map((r) => claimKey({ consumer: r.consumer, messageId: r.message_id })));
  return claims.map((c) => fresh.delete(claimKey(c)));
};
