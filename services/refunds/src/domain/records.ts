import type {
  BlockchainName,
  Currency,
  PaymentStatus,
  RefundReason,
  RefundStatus,
} from '@stablepay/contracts';

/**
 * A payment this service may refund, as projected from payment.completed, or from payment.failed
 * when it failed underpaid with money received (that money goes back to the payer). Amounts are
 * exact 6-decimal strings ("12.500000"), never floats.
 */
export interface RefundablePayment {
  paymentId: string;
  merchantId: string;
  amount: string;
  /** what reached the merchant wallet: the refund ceiling (null: projected before it was kept) */
  receivedAmount: string | null;
  currency: Currency;
  status: PaymentStatus;
  /** the chain the merchant holds the funds on (the destination chain of a cross-chain payment) */
  blockchain: BlockchainName;
  /** the payer, and so where a refund goes */
  fromAddress: string;
  txHash: string;
  createdAt: Date;
  /** when the payment completed, or failed underpaid: the refund window starts here */
  completedAt: Date;
}

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
