import {
  BlockchainName,
  EvmAddress,
  type Currency,
  type PaymentCompletedData,
  type PaymentStatus,
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

/**
 * The chain the merchant holds a payment's funds on, and so the chain a refund is sent from: the
 * source chain of a same-chain payment, the destination chain of a cross-chain one.
 */
export const merchantChainOf = (
  p: Pick<PaymentCompletedData, 'is_cross_chain' | 'destination_chain' | 'source_chain'>,
): BlockchainName | undefined => {
  const chain = BlockchainName.safeParse(p.is_cross_chain ? p.destination_chain : p.source_chain);
  return chain.success ? chain.data : undefined;
};

export const isRefundableAddress = (address: string | null): address is string =>
  address !== null && EvmAddress.safeParse(address).success;
