import { normalizeDecimal } from '@stablepay/contracts';
import type { RefundablePayment, RefundRecord } from '../domain/records.js';

/** A row as the driver returns it (pg and PGlite differ in a few types, handled below). */
export type Row = Record<string, unknown>;

export const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
/** NUMERIC arrives as text from both drivers; normalising keeps the 6-decimal form. */
const decimal = (v: unknown): string => normalizeDecimal(String(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export const toPayment = (r: Row): RefundablePayment => ({
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

export const toRefund = (r: Row): RefundRecord => ({
  id: String(r.id),
  merchantId: String(r.merchant_id),
  paymentId: String(r.payment_id),
  amount: decimal(r.amount),
  currency: r.currency as RefundRecord['currency'],
  status: r.status as RefundRecord['status'],
  destinationAddress: String(r.destination_address),
  blockchain: r.blockchain as RefundRecord['blockchain'],
  reason: r.reason as RefundRecord['reason'],
  note: str(r.note),
  txHash: str(r.tx_hash),
  failureReason: str(r.failure_reason),
  waitingForFunds: Boolean(r.waiting_for_funds),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  completedAt: dateOrNull(r.completed_at),
});

/** A SUM over NUMERIC (text, or null over no rows) in base units. */
export const sumToDecimal = (v: unknown): string => (v === null || v === undefined ? '0.000000' : decimal(v));
