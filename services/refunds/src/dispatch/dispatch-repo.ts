import type { Knex } from 'knex';
import type { Db } from '@stablepay/platform';
import type { Currency } from '@stablepay/contracts';
import { REFUNDS } from '../db/migrations.js';
import { column, rowMapper, sumToDecimal, type Row } from '../db/rows.js';

/** A pending refund the dispatcher has leased for one pass. */
export interface DueRefund {
  id: string;
  merchantId: string;
  currency: Currency;
  amount: string;
  blockchain: string;
  createdAt: Date;
  /** database time of the claim, before the balance was asked for */
  claimedAt: Date;
  /** of the request that asked for the refund */
  correlationId: string | null;
}

const toDueRefund = rowMapper<DueRefund>({
  id: column.text,
  merchantId: column.text,
  currency: column.oneOf(),
  amount: column.decimal,
  blockchain: column.text,
  createdAt: column.date,
  claimedAt: column.date,
  correlationId: column.str,
});

/**
 * Leases refunds that have been pending for at least the hold time. The lease (a
 * `dispatch_not_before` in the future) is taken with SKIP LOCKED, so replicas split the work
 * and none holds a transaction while it asks the chain-watcher for a balance; a replica that dies
 * mid-pass leaves its lease to run out.
 */
export const claimDueRefunds = async (
  db: Db,
  opts: { holdSeconds: number; leaseMs: number; limit: number },
): Promise<DueRefund[]> => {
  const result = (await db.raw(
    `update ${REFUNDS} set dispatch_not_before = now() + (? * interval '1 millisecond')
       where id in (
         select id from ${REFUNDS}
          where status = 'pending'
            and created_at <= now() - (? * interval '1 second')
            and (dispatch_not_before is null or dispatch_not_before <= now())
          order by created_at, id
          limit ?
          for update skip locked)
     returning id, merchant_id, currency, amount, blockchain, created_at, now() as claimed_at, correlation_id`,
    [opts.leaseMs, opts.holdSeconds, opts.limit],
  )) as { rows: Row[] };
  return result.rows
    .map(toDueRefund)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
};

/**
 * Serialises funding decisions for one merchant and token across replicas until the transaction
 * ends, so two refunds can never both be counted against the same balance.
 */
export const lockMerchantToken = async (
  trx: Knex.Transaction,
  merchantId: string,
  currency: Currency,
): Promise<void> => {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`refunds:${merchantId}:${currency}`]);
};

/**
 * The refund if it is still pending, locked until the transaction ends (a cancel waits for it);
 * undefined when it has left `pending` meanwhile.
 */
export const lockPendingRefund = async (
  trx: Knex.Transaction,
  id: string,
): Promise<{ waitingForFunds: boolean } | undefined> => {
  const row = (await trx(REFUNDS).where({ id, status: 'pending' }).forUpdate().first('waiting_for_funds')) as
    Row | undefined;
  return row ? { waitingForFunds: Boolean(row.waiting_for_funds) } : undefined;
};

/**
 * What the merchant's wallet is already committed to send in `currency`: refunds processing, and
 * refunds that completed since `since` (their transfer may have left after the balance was read).
 */
export const committedOutflow = async (
  db: Db,
  merchantId: string,
  currency: Currency,
  since: Date,
): Promise<string> => {
  const [row] = (await db(REFUNDS)
    .where({ merchant_id: merchantId, currency })
    .andWhere((w) =>
      w
        .where({ status: 'processing' })
        .orWhere((c) => c.where({ status: 'completed' }).andWhere('completed_at', '>=', since)),
    )
    .sum<Row[]>('amount as total')) as Row[];
  return sumToDecimal(row?.total);
};

/** The wallet is short: flag it, and look again after `recheckMs`. */
export const markWaitingForFunds = async (db: Db, id: string, recheckMs: number): Promise<void> => {
  await db(REFUNDS)
    .where({ id, status: 'pending' })
    .update({
      waiting_for_funds: true,
      dispatch_failures: 0,
      dispatch_not_before: db.raw(`now() + (? * interval '1 millisecond')`, [recheckMs]),
      updated_at: db.fn.now(),
    });
};

/**
 * The balance could not be read: the refunds stay pending and are retried after an exponential
 * backoff (baseMs · 2^failures, at most maxMs), counted per refund so replicas agree on it.
 */
export const deferDispatch = async (
  db: Db,
  ids: string[],
  opts: { baseMs: number; maxMs: number },
): Promise<void> => {
  if (ids.length === 0) return;
  await db(REFUNDS)
    .whereIn('id', ids)
    .andWhere({ status: 'pending' })
    .update({
      dispatch_not_before: db.raw(
        `now() + least(? * power(2, least(dispatch_failures, 20)), ?) * interval '1 millisecond'`,
        [opts.baseMs, opts.maxMs],
      ),
      dispatch_failures: db.raw('dispatch_failures + 1'),
    });
};
