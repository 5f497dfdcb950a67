import { decimalToBaseUnits, type RefundStatus } from '@stablepay/contracts';

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

/** The spec's window: a refund may be created up to `days` days after the payment completed. */
export const withinRefundWindow = (completedAt: Date, now: Date, days: number): boolean =>
  now.getTime() - completedAt.getTime() <= days * DAY_MS;

/**
 * Base units still refundable, the refund ceiling: what reached the merchant wallet (the received
 * amount; the payment amount for a payment projected before it was kept) less what pending,
 * processing and completed refunds claim. An overpayment's surplus is refundable; of an underpaid
 * payment, what arrived.
 */
export const refundableRemainder = (
  p: { amount: string; receivedAmount: string | null },
  committed: string,
): bigint => {
  const remainder = decimalToBaseUnits(p.receivedAmount ?? p.amount) - decimalToBaseUnits(committed);
  return remainder > 0n ? remainder : 0n;
};

/** The spec's default refund: the payment's amount, capped by what can still be refunded. */
export const defaultRefundUnits = (paymentAmount: string, ceiling: bigint): bigint => {
  const amount = decimalToBaseUnits(paymentAmount);
  return amount < ceiling ? amount : ceiling;
};
