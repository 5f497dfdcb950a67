import type { Knex } from 'knex';
import { rowColumn, type Db } from '@stablepay/platform';
import type { TopUpStatus } from '@stablepay/contracts';
import { PAYMENTS } from '../db/tables.js';
import { PAYMENT_TOP_UPS } from '../db/top-ups-migration.js';
import { toPayment, type Row } from '../db/rows.js';
import type { PaymentRecord } from '../records.js';

export interface TopUpRecord {
  id: string;
  paymentId: string;
  merchantId: string;
  /** lower-case */
  txHash: string;
  status: TopUpStatus;
  receivedAmount: string | null;
  rejectionReason: string | null;
  blockNumber: number | null;
  createdAt: Date;
  decidedAt: Date | null;
}

const toTopUp = (r: Row): TopUpRecord => ({
  id: String(r.id),
  paymentId: String(r.payment_id),
  merchantId: String(r.merchant_id),
  txHash: String(r.tx_hash),
  status: r.status as TopUpStatus,
  receivedAmount: rowColumn.decimalOrNull(r.received_amount),
  rejectionReason: rowColumn.str(r.rejection_reason),
  blockNumber: r.block_number == null ? null : Number(r.block_number),
  createdAt: rowColumn.date(r.created_at),
  decidedAt: rowColumn.dateOrNull(r.decided_at),
});

/** Records a reported top-up; undefined when the transaction was reported before (by anyone). */
export const insertTopUp = async (
  trx: Knex.Transaction,
  t: { id: string; paymentId: string; merchantId: string; txHash: string },
): Promise<TopUpRecord | undefined> => {
  const rows = (await trx(PAYMENT_TOP_UPS)
    .insert({ id: t.id, payment_id: t.paymentId, merchant_id: t.merchantId, tx_hash: t.txHash })
    .onConflict('tx_hash')
    .ignore()
    .returning('*')) as Row[];
  return rows[0] ? toTopUp(rows[0]) : undefined;
};

export const findTopUpByTxHash = async (db: Db, txHash: string): Promise<TopUpRecord | undefined> => {
  const row = (await db(PAYMENT_TOP_UPS).where({ tx_hash: txHash }).first()) as Row | undefined;
  return row ? toTopUp(row) : undefined;
};

/** A payment's top-ups, oldest first. */
export const listTopUps = async (db: Db, paymentId: string): Promise<TopUpRecord[]> =>
  (
    (await db(PAYMENT_TOP_UPS).where({ payment_id: paymentId }).orderBy('created_at').orderBy('id')) as Row[]
  ).map(toTopUp);

export const hasPendingTopUp = async (db: Db, paymentId: string): Promise<boolean> =>
  (await db(PAYMENT_TOP_UPS).where({ payment_id: paymentId, status: 'pending' }).first('id')) !== undefined;

/** The one transition out of `pending`, guarded in the UPDATE: undefined when it was decided before. */
export const decideTopUp = async (
  trx: Knex.Transaction,
  id: string,
  d:
    | { status: 'verified'; receivedAmount: string; blockNumber: number }
    | { status: 'rejected'; reason: string; detail: string },
): Promise<TopUpRecord | undefined> => {
  const rows = (await trx(PAYMENT_TOP_UPS)
    .where({ id, status: 'pending' })
    .update(
      d.status === 'verified'
        ? {
            status: d.status,
            received_amount: d.receivedAmount,
            block_number: d.blockNumber,
            decided_at: trx.fn.now(),
          }
        : {
            status: d.status,
            rejection_reason: d.reason,
            rejection_detail: d.detail.slice(0, 1000),
            decided_at: trx.fn.now(),
          },
    )
    .returning('*')) as Row[];
  return rows[0] ? toTopUp(rows[0]) : undefined;
};

/** Locks the payment row for the rest of the transaction (top-up verdicts of one payment queue here). */
export const lockPayment = async (trx: Knex.Transaction, id: string): Promise<PaymentRecord | undefined> => {
  const row = (await trx(PAYMENTS).where({ id }).forUpdate().first()) as Row | undefined;
  return row ? toPayment(row) : undefined;
};

/**
 * Payments whose top-up window closed with no top-up still being checked, locked for the caller
 * (rows another transaction holds are skipped): one session's, or the oldest `limit`.
 */
export const lockOverdueTopUpPayments = async (
  trx: Knex.Transaction,
  opts: { sessionId?: string; limit: number },
): Promise<PaymentRecord[]> => {
  const q = trx(PAYMENTS)
    .where({ status: 'pending' })
    .whereNotNull('awaiting_top_up_until')
    .where('awaiting_top_up_until', '<=', trx.fn.now())
    .whereNotExists(
      trx(PAYMENT_TOP_UPS)
        .whereRaw(`payment_id = ${PAYMENTS}.id`)
        .where({ status: 'pending' })
        .select(trx.raw('1')),
    )
    .orderBy('awaiting_top_up_until')
    .limit(opts.limit)
    .forUpdate()
    .skipLocked();
  if (opts.sessionId !== undefined) q.where({ session_id: opts.sessionId });
  return ((await q) as Row[]).map(toPayment);
};
