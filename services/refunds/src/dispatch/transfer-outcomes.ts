import type { Knex } from 'knex';
import type { TransitionOutcome } from '@stablepay/platform';
import type { RefundStatus } from '@stablepay/contracts';
import type { RefundsContext } from '../context.js';
import { findRefund } from '../refunds/refunds-repo.js';
import { refundEvent } from '../refunds/refund-events.js';
import type { RefundRecord } from '../refunds/records.js';

/**
 * The chain-watcher's reports on a refund's transfer. A report that does not fit the refund's
 * status (a repeat after completion, a refund that was never sent) is logged and dropped: retrying
 * it could never make it fit.
 */

/** The status a refused transition found the refund in; `unknown` when there is no such refund. */
const statusFound = (outcome: TransitionOutcome<RefundStatus, RefundRecord>): string =>
  outcome.applied
    ? outcome.record.status
    : outcome.refusal.kind === 'not_found'
      ? 'unknown'
      : outcome.refusal.status;

/** transfer.submitted: the hash is known; the refund stays processing until confirmed. */
export const recordSubmittedIn = async (
  ctx: RefundsContext,
  trx: Knex.Transaction,
  refundId: string,
  txHash: string,
): Promise<void> => {
  if (await ctx.refunds.note(trx, refundId, ['processing'], { tx_hash: txHash })) return;
  const current = await findRefund(trx, refundId);
  if (current && (current.status === 'completed' || current.status === 'failed')) {
    // The outcome overtook the submission; it already recorded what there is to record.
    ctx.logger.info('transfer.submitted after the refund ended; ignored', {
      refundId,
      status: current.status,
    });
    return;
  }
  ctx.logger.warn('transfer.submitted for a refund that is not processing; dropped', {
    refundId,
    status: current?.status ?? 'unknown',
  });
};

/** transfer.confirmed: processing → completed, refund.completed with the hash. */
export const completeRefundIn = async (
  ctx: RefundsContext,
  trx: Knex.Transaction,
  refundId: string,
  txHash: string,
): Promise<void> => {
  const outcome = await ctx.refunds.apply(trx, refundId, 'complete', {
    patch: { tx_hash: txHash, completed_at: trx.fn.now() },
    events: (r) => refundEvent('refund.completed', r),
  });
  if (outcome.applied) {
    ctx.logger.info('refund completed', { refundId, txHash });
    return;
  }
  const status = statusFound(outcome);
  if (status === 'completed') {
    ctx.logger.info('refund already completed; repeated confirmation ignored', { refundId });
    return;
  }
  // Money moved for a refund that was not processing: an operator has to look at this one.
  ctx.logger.error('transfer.confirmed for a refund that is not processing; dropped', {
    refundId,
    status,
    txHash,
  });
};

/** transfer.failed: processing → failed with the chain-watcher's reason, refund.failed. */
export const failRefundIn = async (
  ctx: RefundsContext,
  trx: Knex.Transaction,
  refundId: string,
  reason: string,
  txHash?: string | null,
): Promise<void> => {
  const outcome = await ctx.refunds.apply(trx, refundId, 'fail', {
    patch: { failure_reason: reason, failed_at: trx.fn.now(), ...(txHash ? { tx_hash: txHash } : {}) },
    events: (r) => refundEvent('refund.failed', r),
  });
  if (outcome.applied) {
    ctx.logger.warn('refund failed', { refundId, reason });
    return;
  }
  const status = statusFound(outcome);
  const log = status === 'failed' ? ctx.logger.info.bind(ctx.logger) : ctx.logger.warn.bind(ctx.logger);
  log('transfer.failed for a refund that is not processing; dropped', { refundId, status, reason });
};
