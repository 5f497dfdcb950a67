import type { Knex } from 'knex';
import type { RefundStatus } from '@stablepay/contracts';
import { conflict, fieldDetail, notFound } from '@stablepay/platform';
import { findRefund, transitionRefundRow } from './refunds-repo.js';
import { writeEvent, type RefundsContext } from '../context.js';
import { writeRefundEvent } from './refund-events.js';
import type { RefundRecord } from './records.js';
import { statusesLeadingTo } from './rules.js';

export type TransitionOutcome =
  | { moved: true; refund: RefundRecord }
  /** the guard did not hold; `current` is the refund as it is (undefined: no such refund) */
  | { moved: false; current: RefundRecord | undefined };

/**
 * One guarded UPDATE: it succeeds only from a status that may lead to `to` (REFUND_TRANSITIONS),
 * checked in the statement itself, so racing transitions cannot both win.
 */
export const transitionRefund = async (
  trx: Knex.Transaction,
  id: string,
  to: RefundStatus,
  patch: Record<string, unknown> = {},
  merchantId?: string,
): Promise<TransitionOutcome> => {
  const moved = await transitionRefundRow(trx, id, statusesLeadingTo(to), to, patch, merchantId);
  if (moved) return { moved: true, refund: moved };
  return { moved: false, current: await findRefund(trx, id, merchantId) };
};

/** Leaving `pending` ends the dispatcher's interest in the refund. */
const leavingPending = () => ({
  waiting_for_funds: false,
  dispatch_not_before: null,
});

/**
 * POST /refunds/api/:id/cancel. Only a pending refund can be cancelled; the guarded UPDATE makes a
 * cancel and the dispatcher's pending → processing exclusive, whichever commits first wins.
 */
export const cancelRefund = async (
  ctx: RefundsContext,
  merchantId: string,
  id: string,
): Promise<RefundRecord> => {
  const refund = await ctx.db.transaction(async (trx) => {
    const outcome = await transitionRefund(
      trx,
      id,
      'cancelled',
      { ...leavingPending(), cancelled_at: trx.fn.now() },
      merchantId,
    );
    if (!outcome.moved) {
      if (!outcome.current) throw notFound('Refund');
      const { status } = outcome.current;
      throw conflict(`Refund is ${status} and can no longer be cancelled`, [
        fieldDetail('id', 'Only a pending refund can be cancelled', 'refund_not_pending'),
      ]);
    }
    await writeRefundEvent(trx, 'refund.cancelled', outcome.refund);
    return outcome.refund;
  });
  ctx.eventsCommitted();
  ctx.logger.info('refund cancelled', { refundId: refund.id });
  return refund;
};

/**
 * The dispatcher found the funds: pending → processing, and the transfer command goes out in the
 * same commit. The refund id is the command's idempotency key, so the chain-watcher sends at most
 * one transfer for it however often the command is delivered. Undefined when the refund is no
 * longer pending (cancelled meanwhile).
 */
export const startProcessingIn = async (
  trx: Knex.Transaction,
  id: string,
): Promise<RefundRecord | undefined> => {
  const outcome = await transitionRefund(trx, id, 'processing', {
    ...leavingPending(),
    dispatch_failures: 0,
    processing_at: trx.fn.now(),
  });
  if (!outcome.moved) return undefined;
  const r = outcome.refund;
  await writeEvent(trx, 'transfer.requested', r.merchantId, {
    idempotencyKey: r.id,
    purpose: 'refund',
    merchantId: r.merchantId,
    blockchain: r.blockchain,
    token: r.currency,
    amount: r.amount,
    toAddress: r.destinationAddress,
  });
  return r;
};
