import type { Knex } from 'knex';
import { PAYMENTS } from '../db/migrations.js';
import { date, decimal, type Row } from '../db/rows.js';
import type { RefundablePayment } from './refundable-payment.js';

type Db = Knex | Knex.Transaction;

const toPayment = (r: Row): RefundablePayment => ({
  paymentId: String(r.payment_id),
  merchantId: String(r.merchant_id),
  amount: decimal(r.amount),
  receivedAmount:
    r.received_amount === null || r.received_amount === undefined ? null : decimal(r.received_amount),
  currency: r.currency as RefundablePayment['currency'],
  status: r.status as RefundablePayment['status'],
  blockchain: r.blockchain as RefundablePayment['blockchain'],
  fromAddress: String(r.from_address),
  txHash: String(r.tx_hash),
  createdAt: date(r.payment_created_at),
  completedAt: date(r.completed_at),
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
  const row = (await db(PAYMENTS).where({ payment_id: paymentId, merchant_id: merchantId }).first()) as
    Row | undefined;
  return row ? toPayment(row) : undefined;
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
  const row = (await trx(PAYMENTS)
    .where({ payment_id: paymentId, merchant_id: merchantId })
    .forUpdate()
    .first()) as Row | undefined;
  return row ? toPayment(row) : undefined;
};
