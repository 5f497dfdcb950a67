import type { Knex } from 'knex';
import type { Logger } from '@stablepay/platform';
import { findRefund, setProcessingTxHash } from '../refunds/refunds-repo.js';
import { writeRefundEvent } from '../refunds/refund-events.js';
import { transitionRefund } from '../refunds/refund-state.js';

/**
 * The chain-watcher's reports on a refund's transfer. A report that does not fit the refund's
 * status (a repeat after completion, a refund that was never sent) is logged and dropped: retrying
 * it could never make it fit.
 */

/** transfer.submitted: the hash is known; the refund stays processing until confirmed. */
export const recordSubmittedIn = async (
  trx: Knex.Transaction,
  logger: Logger,
  refundId: string,
  txHash: string,
): Promise<void> => {
  if (await setProcessingTxHash(trx, refundId, txHash)) return;
  const current = await findRefund(trx, refundId);
  if (current && (current.status === 'completed' || current.status === 'failed')) {
    // The outcome overtook the submission; it already recorded what there is to record.
    logger.info('transfer.submitted after the refund ended; ignored', { refundId, status: current.status });
    return;
  }
  logger.warn('transfer.submitted for a refund that is not processing; dropped', {
    refundId,
    status: current?.status ?? 'unknown',
  });
};

/** transfer.confirmed: processing → completed, refund.completed with the hash. */
export const completeRefundIn = async (
  trx: Knex.Transaction,
  logger: Logger,
  refundId: string,
  txHash: string,
): Promise<void> => {
  const outcome = await transitionRefund(trx, refundId, 'completed', {
    tx_hash: txHash,
    completed_at: trx.fn.now(),
  });
  if (outcome.moved) {
    await writeRefundEvent(trx, 'refund.completed', outcome.refund);
    logger.info('refund completed', { refundId, txHash });
    return;
  }
  const status = outcome.current?.status ?? 'unknown';
  if (status === 'completed') {
    logger.info('refund already completed; repeated confirmation ignored', { refundId });
    return;
  }
  // Money moved for a refund that was not processing: an operator has to look at this one.
  logger.error('transfer.confirmed for a refund that is not processing; dropped', {
    refundId,
    status,
    txHash,
  });
};

/** transfer.failed: processing → failed with the chain-watcher's reason, refund.failed. */
export const failRefundIn = async (
  trx: Knex.Transaction,
  logger: Logger,
  refundId: string,
  reason: string,
  txHash?: string | null,
): Promise<void> => {
  const patch: Record<string, unknown> = { failure_reason: reason, failed_at: trx.fn.now() };
  if (txHash) patch.tx_hash = txHash;
  const outcome = await transitionRefund(trx, refundId, 'failed', patch);
  if (outcome.moved) {
    await writeRefundEvent(trx, 'refund.failed', outcome.refund);
    logger.warn('refund failed', { refundId, reason });
    return;
  }
  const status = outcome.current?.status ?? 'unknown';
  const log = status === 'failed' ? logger.info.bind(logger) : logger.warn.bind(logger);
  log('transfer.failed for a refund that is not processing; dropped', { refundId, status, reason });
};
