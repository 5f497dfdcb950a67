import type { Knex } from 'knex';
import { CCTP_PAYMENTS } from '../migrations/tables.js';

/**
 * Cross-chain payments in an open step that nobody looked at for `staleMs` (a back-off that grew
 * long, a worker that died holding the lease) are made due again. Returns how many.
 */
export const recoverStaleCctp = async (db: Knex, staleMs: number): Promise<number> => {
  const result = (await db.raw(
    `update ${CCTP_PAYMENTS}
        set next_check_at = now(), locked_until = null, backoff_step = 0, updated_at = now()
      where step not in ('done', 'failed')
        and updated_at < now() - (? * interval '1 millisecond')
        and next_check_at > now()
        and (locked_until is null or locked_until < now())
      returning payment_id`,
    [staleMs],
  )) as { rows: unknown[] };
  return result.rows.length;
};
