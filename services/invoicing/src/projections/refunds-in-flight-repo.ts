import type { Knex } from 'knex';
import type { BlockchainName, Currency, RefundEventData } from '@stablepay/contracts';
import { REFUNDS_IN_FLIGHT } from '../db/migrations.js';
import { sumToDecimal, type Row } from '../db/rows.js';

const rowOf = (r: RefundEventData) => ({
  refund_id: r.refund_id,
  merchant_id: r.merchant_id,
  currency: r.currency,
  blockchain: r.blockchain,
  amount: r.amount,
});

/** refund.created: the refund holds its amount back until it ends (a late copy changes nothing). */
export const openRefund = async (trx: Knex.Transaction, r: RefundEventData): Promise<void> => {
  await trx(REFUNDS_IN_FLIGHT).insert(rowOf(r)).onConflict('refund_id').ignore();
};

/** The refund's end: its amount is no longer held back (a completed one has left the wallet). */
export const closeRefund = async (
  trx: Knex.Transaction,
  r: RefundEventData,
  outcome: 'completed' | 'failed' | 'cancelled',
): Promise<void> => {
  const row = rowOf(r);
  // The first end recorded stands; a repeat must not move closed_at (it counts the refund again).
  await trx.raw(
    `insert into ${REFUNDS_IN_FLIGHT} (refund_id, merchant_id, currency, blockchain, amount, outcome, closed_at)
     values (?, ?, ?, ?, ?, ?, now())
     on conflict (refund_id) do update set outcome = excluded.outcome, closed_at = excluded.closed_at
      where ${REFUNDS_IN_FLIGHT}.outcome is null`,
    [row.refund_id, row.merchant_id, row.currency, row.blockchain, row.amount, outcome],
  );
};

/**
 * What refunds still hold back in `currency` on `blockchain` beyond a balance read at
 * `balanceReadAt`: those not ended, and those completed since (the balance may predate them).
 */
export const refundsOwed = async (
  db: Knex | Knex.Transaction,
  merchantId: string,
  currency: Currency,
  blockchain: BlockchainName,
  balanceReadAt: Date,
): Promise<string> => {
  const result = (await db.raw(
    `select coalesce(sum(amount), 0) as total
       from ${REFUNDS_IN_FLIGHT}
      where merchant_id = ? and currency = ? and blockchain = ?
        and (outcome is null or (outcome = 'completed' and closed_at >= ?))`,
    [merchantId, currency, blockchain, balanceReadAt],
  )) as { rows: Row[] };
  return sumToDecimal(result.rows[0]?.total);
};
