import type { Knex } from 'knex';
import type { Db } from '@stablepay/platform';
import { PAYMENTS } from '../db/migrations.js';
import { column, firstOf, rowMapper } from '../db/rows.js';
import type { RefundablePayment } from './refundable-payment.js';

const toPayment = rowMapper<RefundablePayment>({
  paymentId: column.text,
  merchantId: column.text,
  amount: column.decimal,
  receivedAmount: column.decimalOrNull,
  currency: column.oneOf(),
  status: column.oneOf(),
  blockchain: column.oneOf(),
  fromAddress: column.text,
  txHash: column.text,
  createdAt: { column: 'payment_created_at', read: column.date },
  completedAt: column.date,
});

/**
 * Records a completed payment once. A payment completes only once, so a repeated or late
 * payment.completed never changes what refunds were checked against.
 */
export const insertPaymentIfNew = async (db: Db, p: RefundablePayment): Promise<boolean> =>
  (await insertPaymentsIfNew(db, [p])).length === 1;

/**
 * insertPaymentIfNew for many payments in one statement; the ids of those it recorded. The first of
 * a payment's repeats wins, and rows go in in id order so that two batches never deadlock.
 */
export const insertPaymentsIfNew = async (
  db: Db,
  payments: readonly RefundablePayment[],
): Promise<string[]> => {
  const distinct = new Map<string, RefundablePayment>();
  for (const p of payments) if (!distinct.has(p.paymentId)) distinct.set(p.paymentId, p);
  const rows = [...distinct.values()]
    .sort((a, b) => (a.paymentId < b.paymentId ? -1 : 1))
    .map((p) => ({
      payment_id: p.paymentId,
      merchant_id: p.merchantId,
      amount: p.amount,
      received_amount: p.receivedAmount,
      currency: p.currency,
      status: p.status,
      blockchain: p.blockchain,
      from_address: p.fromAddress,
      tx_hash: p.txHash,
      payment_created_at: p.createdAt,
      completed_at: p.completedAt,
    }));
  const inserted = (await db(PAYMENTS)
    .insert(rows)
    .onConflict('payment_id')
    .ignore()
    .returning('payment_id')) as Array<{
    payment_id: string;
  }>;
  return inserted.map((r) => r.payment_id);
};

/** Another merchant's payment is simply not found. */
export const findPayment = async (
  db: Db,
  paymentId: string,
  merchantId: string,
): Promise<RefundablePayment | undefined> => {
  return firstOf(db(PAYMENTS).where({ payment_id: paymentId, merchant_id: merchantId }), toPayment);
};

/**
 * The payment row locked until the caller's transaction ends: refunds of one payment are created
 * one at a time, so the refundable remainder each of them sees is exact.
 */
export const lockPayment = async (
  trx: Knex.Transaction,
  paymentId: string,
  merchantId: string,
): Promise<RefundablePayment | undefined> => {
  return firstOf(
    trx(PAYMENTS).where({ payment_id: paymentId, merchant_id: merchantId }).forUpdate(),
    toPayment,
  );
};
