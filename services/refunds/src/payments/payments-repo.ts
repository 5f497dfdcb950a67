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
export const insertPaymentIfNew = async (db: Db, p: RefundablePayment): Promise<boolean> => {
  const rows = await db(PAYMENTS)
    .insert({
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
    })
    .onConflict('payment_id')
    .ignore()
    .returning('payment_id');
  return rows.length === 1;
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
