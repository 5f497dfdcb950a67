import { RefundStatus, decimalToBaseUnits } from '@stablepay/contracts';
import { defineTransitions, nextStatuses, statusesLeadingTo as leadingTo } from '@stablepay/platform';

const DAY_MS = 86_400_000;

export type RefundTransition = 'dispatch' | 'cancel' | 'complete' | 'fail';

/**
 * The refund's transitions. Only `pending` can be cancelled; the dispatcher alone moves pending →
 * processing, and only the chain-watcher's outcome ends a processing refund.
 */
export const REFUND_STATE_TRANSITIONS = defineTransitions<RefundStatus, RefundTransition>({
  dispatch: { from: ['pending'], to: 'processing' },
  cancel: { from: ['pending'], to: 'cancelled' },
  complete: { from: ['processing'], to: 'completed' },
  fail: { from: ['processing'], to: 'failed' },
});

/** Where each refund status may go next. */
export const REFUND_TRANSITIONS: Readonly<Record<RefundStatus, readonly RefundStatus[]>> = nextStatuses(
  REFUND_STATE_TRANSITIONS,
  RefundStatus.options,
);

export const statusesLeadingTo = (to: RefundStatus): RefundStatus[] =>
  leadingTo(REFUND_STATE_TRANSITIONS, to);

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
