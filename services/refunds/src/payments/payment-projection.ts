import { decimalToBaseUnits, type PaymentCompletedData, type PaymentFailedData } from '@stablepay/contracts';
import { isRefundableAddress, merchantChainOf, type RefundablePayment } from './refundable-payment.js';

export type ProjectionResult = { ok: true; payment: RefundablePayment } | { ok: false; problem: string };

type ProjectedFields = Pick<
  PaymentCompletedData,
  | 'payment_id'
  | 'merchant_id'
  | 'amount'
  | 'currency'
  | 'tx_hash'
  | 'from_address'
  | 'source_chain'
  | 'destination_chain'
  | 'is_cross_chain'
  | 'received_amount'
  | 'created_at'
>;

const project = (d: ProjectedFields, status: 'completed' | 'failed', settledAt: Date): ProjectionResult => {
  const blockchain = merchantChainOf(d);
  if (!blockchain) {
    const field = d.is_cross_chain ? 'destination_chain' : 'source_chain';
    return { ok: false, problem: `${field} ${JSON.stringify(d[field])} is not a known blockchain` };
  }
  if (!isRefundableAddress(d.from_address)) {
    return { ok: false, problem: `from_address ${JSON.stringify(d.from_address)} is not an EVM address` };
  }
  if (!d.tx_hash) return { ok: false, problem: 'tx_hash is missing' };
  return {
    ok: true,
    payment: {
      paymentId: d.payment_id,
      merchantId: d.merchant_id,
      amount: d.amount,
      receivedAmount: d.received_amount ?? null,
      currency: d.currency,
      status,
      blockchain,
      fromAddress: d.from_address,
      txHash: d.tx_hash,
      createdAt: d.created_at ? new Date(d.created_at) : settledAt,
      completedAt: settledAt,
    },
  };
};

/**
 * payment.completed → the facts a refund needs. An event without a creation time has the
 * completion time stand in for the payment's `created_at` in the refund detail view; one without
 * a received amount (an earlier producer's) is held to its amount.
 */
export const toRefundablePayment = (d: PaymentCompletedData): ProjectionResult =>
  project(d, 'completed', new Date(d.completed_at));

/** True for a failed payment whose money reached the merchant wallet short of its amount. */
export const receivedShort = (d: Pick<PaymentFailedData, 'failure_reason' | 'received_amount'>): boolean =>
  d.failure_reason === 'underpaid' &&
  d.received_amount !== null &&
  d.received_amount !== undefined &&
  decimalToBaseUnits(d.received_amount) > 0n;

/**
 * payment.failed as underpaid with money received → refundable up to what arrived: it belongs back
 * to the payer, sent to the original sender as every refund. `failedAt` (the event's time) starts
 * the refund window. Any other failure leaves nothing to refund (undefined).
 */
export const toRefundableShortfall = (d: PaymentFailedData, failedAt: Date): ProjectionResult | undefined =>
  receivedShort(d) ? project(d, 'failed', failedAt) : undefined;
