import type { BlockchainName, Currency, RefundReason, RefundStatus } from '@stablepay/contracts';

export interface RefundRecord {
  id: string;
  merchantId: string;
  paymentId: string;
  amount: string;
  currency: Currency;
  status: RefundStatus;
  destinationAddress: string;
  blockchain: BlockchainName;
  reason: RefundReason;
  note: string | null;
  txHash: string | null;
  failureReason: string | null;
  waitingForFunds: boolean;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** The spec's snake_case refund fields shared by the API views and the refund events. */
export const refundFields = (r: RefundRecord) => ({
  payment_id: r.paymentId,
  amount: r.amount,
  currency: r.currency,
  status: r.status,
  destination_address: r.destinationAddress,
  blockchain: r.blockchain,
  reason: r.reason,
});
