import type { PaymentCompletedData } from '@stablepay/contracts';
import type { RefundablePayment } from './records.js';
import { isRefundableAddress, merchantChainOf } from './rules.js';

export type ProjectionResult = { ok: true; payment: RefundablePayment } | { ok: false; problem: string };

/**
 * payment.completed → the facts a refund needs. payment.completed carries no creation time, so the
 * completion time stands in for the payment's `created_at` in the refund detail view.
 */
export const toRefundablePayment = (d: PaymentCompletedData): ProjectionResult => {
  const blockchain = merchantChainOf(d);
  if (!blockchain) {
    const field = d.is_cross_chain ? 'destination_chain' : 'source_chain';
    return { ok: false, problem: `${field} ${JSON.stringify(d[field])} is not a known blockchain` };
  }
  if (!isRefundableAddress(d.from_address)) {
    return { ok: false, problem: `from_address ${JSON.stringify(d.from_address)} is not an EVM address` };
  }
  if (!d.tx_hash) return { ok: false, problem: 'tx_hash is missing' };
  const completedAt = new Date(d.completed_at);
  return {
    ok: true,
    payment: {
      paymentId: d.payment_id,
      merchantId: d.merchant_id,
      amount: d.amount,
      currency: d.currency,
      status: d.status,
      blockchain,
      fromAddress: d.from_address,
      txHash: d.tx_hash,
      createdAt: d.created_at ? new Date(d.created_at) : completedAt,
      completedAt,
    },
  };
};
