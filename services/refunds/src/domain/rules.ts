import {
  BlockchainName,
  EvmAddress,
  decimalToBaseUnits,
  type PaymentCompletedData,
  type RefundStatus,
} from '@stablepay/contracts';

const DAY_MS = 86_400_000;

/**
 * Where each refund status may go next. Only `pending` can be cancelled; the dispatcher alone
 * moves pending → processing, and only the chain-watcher's outcome ends a processing refund.
 */
export const REFUND_TRANSITIONS: Readonly<Record<RefundStatus, readonly RefundStatus[]>> = {
  pending: ['processing', 'cancelled'],
  processing: ['completed', 'failed'],
  completed: [],
  failed: [],
  cancelled: [],
};

export const statusesLeadingTo = (to: RefundStatus): RefundStatus[] =>
  (Object.keys(REFUND_TRANSITIONS) as RefundStatus[]).filter((from) => REFUND_TRANSITIONS[from].includes(to));

/** Pending, processing and completed refunds count against the payment; cancelled and failed ones do not. */
export const COMMITTED_REFUND_STATUSES: readonly RefundStatus[] = ['pending', 'processing', 'completed'];

/**
 * The chain the merchant holds a payment's funds on, and so the chain a refund is sent from: the
 * source chain of a same-chain payment, the destination chain of a cross-chain one.
 */
export const merchantChainOf = (p: PaymentCompletedData): BlockchainName | undefined => {
  const chain = BlockchainName.safeParse(p.is_cross_chain ? p.destination_chain : p.source_chain);
  return chain.success ? chain.data : undefined;
};

export const isRefundableAddress = (address: string | null): address is string =>
  address !== null && EvmAddress.safeParse(address).success;

/** The spec's window: a refund may be created up to `days` days after the payment completed. */
export const withinRefundWindow = (completedAt: Date, now: Date, days: number): boolean =>
  now.getTime() - completedAt.getTime() <= days * DAY_MS;

/** Base units still refundable: the payment amount less what pending, processing and completed refunds claim. */
export const refundableRemainder = (paymentAmount: string, committed: string): bigint => {
  const remainder = decimalToBaseUnits(paymentAmount) - decimalToBaseUnits(committed);
  return remainder > 0n ? remainder : 0n;
};

/** Does the wallet's balance of the token cover this refund on top of what it already owes? */
export const fundsCover = (balance: string, alreadyCommitted: string, amount: string): boolean =>
  decimalToBaseUnits(balance) >= decimalToBaseUnits(alreadyCommitted) + decimalToBaseUnits(amount);
