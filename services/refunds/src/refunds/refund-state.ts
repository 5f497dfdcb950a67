import type { Knex } from 'knex';
import { conflict, fieldDetail, notFound } from '@stablepay/platform';
import type { RefundsContext } from '../context.js';
import { refundEvent } from './refund-events.js';
import type { RefundRecord } from './records.js';

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
    const outcome = await ctx.refunds.apply(trx, id, 'cancel', {
      patch: { ...leavingPending(), cancelled_at: trx.fn.now() },
      scope: { merchant_id: merchantId },
      events: (r) => refundEvent('refund.cancelled', r),
    });
    if (outcome.applied) return outcome.record;
    if (outcome.refusal.kind === 'not_found') throw notFound('Refund');
    throw conflict(`Refund is ${outcome.refusal.status} and can no longer be cancelled`, [
      fieldDetail('id', 'Only a pending refund can be cancelled', 'refund_not_pending'),
    ]);
  });
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
  ctx: RefundsContext,
  trx: Knex.Transaction,
  id: string,
): Promise<RefundRecord | undefined> => {
  const outcome = await ctx.refunds.apply(trx, id, 'dispatch', {
    patch: { ...leavingPending(), dispatch_failures: 0, processing_at: trx.fn.now() },
    events: (r) => ({
      type: 'transfer.requested',
      merchantId: r.merchantId,
      data: {
        idempotencyKey: r.id,
        purpose: 'refund',
        merchantId: r.merchantId,
        blockchain: r.blockchain,
        token: r.currency,
        amount: r.amount,
        toAddress: r.destinationAddress,
      },
    }),
  });
  return outcome.applied ? outcome.record : undefined;
};
