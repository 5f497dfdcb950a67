import type { Knex } from 'knex';
import { INBOX_TABLE, type Logger } from '@stablepay/platform';
import { EMAILS, EVENTS, PAYMENT_CUSTOMERS } from '../migrations.js';
import { loopWorker, type LoopWorker } from '@stablepay/platform';

/** A refund may come up to 180 days after its payment; the customer's address must outlive that. */
const CUSTOMER_RETENTION_DAYS = 200;
const CHUNK = 1_000;

const deleteOlderThan = async (
  db: Knex,
  table: string,
  column: string,
  days: number,
  extra = '',
): Promise<number> => {
  const key = table === PAYMENT_CUSTOMERS ? 'payment_id' : table === INBOX_TABLE ? 'message_id' : 'id';
  const r = (await db.raw(
    `delete from ${table} where ${key} in (
       select ${key} from ${table} where ${column} < now() - (? * interval '1 day') ${extra} limit ${CHUNK})`,
    [days],
  )) as { rowCount?: number };
  return r.rowCount ?? 0;
};

/**
 * Deletes what is older than WEBHOOK_RETENTION_DAYS: events (their deliveries and attempt logs go
 * with them), finished e-mails and inbox records; customer addresses after 200 days. In chunks, so
 * no statement holds many locks for long.
 */
export const retentionWorker = (opts: {
  db: Knex;
  logger: Logger;
  retentionDays: number;
  intervalMs?: number;
}): LoopWorker => {
  const { db, retentionDays } = opts;
  return loopWorker({
    name: 'retention',
    intervalMs: opts.intervalMs ?? 3_600_000,
    logger: opts.logger,
    pass: async () => {
      const deleted =
        (await deleteOlderThan(db, EVENTS, 'occurred_at', retentionDays)) +
        (await deleteOlderThan(db, EMAILS, 'created_at', retentionDays, `and status <> 'pending'`)) +
        (await deleteOlderThan(db, INBOX_TABLE, 'processed_at', retentionDays)) +
        (await deleteOlderThan(db, PAYMENT_CUSTOMERS, 'created_at', CUSTOMER_RETENTION_DAYS));
      if (deleted > 0) opts.logger.info('old notifier records deleted', { deleted });
      return deleted >= CHUNK;
    },
  });
};
