import type { Logger, Worker } from '@stablepay/platform';
import type { Knex } from 'knex';
import { pruneExpiredIdempotency } from './perimeter/idempotency-repo.js';
import { pruneExpiredRefreshTokens } from './accounts/refresh-tokens-repo.js';

/** Deletes expired idempotency records and long-expired refresh tokens, every `intervalMs`. */
export const createMaintenanceWorker = (db: Knex, logger: Logger, intervalMs = 10 * 60_000): Worker => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const sweep = async () => {
    try {
      const records = await pruneExpiredIdempotency(db);
      const tokens = await pruneExpiredRefreshTokens(db);
      if (records + tokens > 0)
        logger.info('expired records removed', { idempotencyRecords: records, refreshTokens: tokens });
    } catch (err) {
      logger.warn('maintenance sweep failed', { err });
    }
  };
  return {
    name: 'maintenance',
    start: () => {
      timer = setInterval(() => {
        running ??= sweep().finally(() => (running = undefined));
      }, intervalMs);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
};
