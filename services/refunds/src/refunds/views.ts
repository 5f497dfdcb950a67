import type { CreatedRefund, RefundDetail, RefundListItem, RefundPayment } from '@stablepay/contracts';
import type { RefundablePayment } from '../payments/refundable-payment.js';
import { refundFields, type RefundRecord } from './records.js';

/** Records → the spec's response views; each view lists exactly its fields. */

export const toCreatedView = (r: RefundRecord): CreatedRefund => ({ id: r.id, ...refundFields(r) });

export const toListItem = (r: RefundRecord): RefundListItem => ({
  ...toCreatedView(r),
  tx_hash: r.txHash,
  created_at: r.createdAt.toISOString(),
});

const toPaymentView = (p: RefundablePayment): RefundPayment => ({
  id: p.paymentId,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
  tx_hash: p.txHash,
  from_address: p.fromAddress,
  created_at: p.createdAt.toISOString(),
});

export const toDetail = (r: RefundRecord, p: RefundablePayment): RefundDetail => ({
  ...toListItem(r),
  ...(r.note === null ? {} : { note: r.note }),
  failure_reason: r.failureReason,
  completed_at: r.completedAt?.toISOString() ?? null,
  payment: toPaymentView(p),
  // Only a pending refund can be waiting; once it has moved on the flag means nothing.
  waiting_for_funds: r.status === 'pending' && r.waitingForFunds,
});
