import type { Knex } from 'knex';
import { lockWithdrawal, setLegTxHash, updateLeg } from './withdrawals-repo.js';
import type { InvoicingContext } from '../context.js';
import { basisOfWithdrawal, issueInvoiceIn } from '../invoices/issue-invoice.js';
import type { Leg } from './records.js';
import { withdrawalEventBase } from './withdrawal-events.js';
import { legName } from './withdrawal-rules.js';

/**
 * The chain-watcher's reports on a withdrawal's two transfers. Each runs in the inbox transaction of
 * its message with the withdrawal row locked, so the reports on the net and the fee transfer are
 * applied one after the other and exactly one of them sees both confirmed. A report that does not
 * fit (a repeat, a withdrawal unknown here) is logged and dropped: retrying could never make it fit.
 */

const other = (leg: Leg): Leg => (leg === 'net' ? 'fee' : 'net');

/** The first submission (or an outcome overtaking it) makes a requested withdrawal processing. */
const startProcessing = (ctx: InvoicingContext, trx: Knex.Transaction, withdrawalId: string) =>
  ctx.withdrawals.apply(trx, withdrawalId, 'process', { patch: { processing_at: trx.fn.now() } });

/** transfer.submitted: the hash is known; the withdrawal is processing until both are confirmed. */
export const recordSubmittedIn = async (
  ctx: InvoicingContext,
  trx: Knex.Transaction,
  withdrawalId: string,
  leg: Leg,
  txHash: string,
): Promise<void> => {
  const w = await lockWithdrawal(trx, withdrawalId);
  if (!w) {
    ctx.logger.warn('transfer.submitted for an unknown withdrawal; dropped', { withdrawalId, leg });
    return;
  }
  const moved = await updateLeg(trx, withdrawalId, leg, ['requested'], 'submitted', { txHash });
  // An outcome may overtake its submission; the hash is still worth keeping.
  if (!moved) await setLegTxHash(trx, withdrawalId, leg, txHash);
  await startProcessing(ctx, trx, withdrawalId);
};

/**
 * transfer.confirmed. When this makes both transfers confirmed the withdrawal completes, and in the
 * same transaction withdrawal.completed is written and its invoice issued: an invoice exists exactly
 * when the completion does, whatever crashes or redeliveries happen around it.
 */
export const recordConfirmedIn = async (
  ctx: InvoicingContext,
  trx: Knex.Transaction,
  withdrawalId: string,
  leg: Leg,
  txHash: string,
): Promise<{ invoiceIssued: boolean }> => {
  const w = await lockWithdrawal(trx, withdrawalId);
  if (!w) {
    ctx.logger.warn('transfer.confirmed for an unknown withdrawal; dropped', { withdrawalId, leg });
    return { invoiceIssued: false };
  }
  const moved = await updateLeg(trx, withdrawalId, leg, ['requested', 'submitted'], 'confirmed', {
    txHash,
    confirmed: true,
  });
  if (!moved) {
    const state = w[leg].state;
    const log = state === 'confirmed' ? ctx.logger.info.bind(ctx.logger) : ctx.logger.error.bind(ctx.logger);
    log(`transfer.confirmed for a ${leg} transfer that is ${state}; dropped`, { withdrawalId, leg, txHash });
    return { invoiceIssued: false };
  }
  if (moved[other(leg)].state !== 'confirmed') {
    await startProcessing(ctx, trx, withdrawalId);
    if (moved.status === 'failed') {
      // Money moved for a withdrawal that failed on its other transfer: an operator has to look at it.
      ctx.logger.error(`the ${legName(leg)} of a failed withdrawal was confirmed`, { withdrawalId, txHash });
    }
    return { invoiceIssued: false };
  }
  const outcome = await ctx.withdrawals.apply(trx, withdrawalId, 'complete', {
    patch: { completed_at: trx.fn.now() },
    events: (w) => ({
      type: 'withdrawal.completed',
      merchantId: w.merchantId,
      data: {
        ...withdrawalEventBase(w),
        txHash: w.net.txHash!,
        feeTxHash: w.fee.txHash!,
        completedAt: w.completedAt!.toISOString(),
      },
    }),
  });
  if (!outcome.applied) {
    ctx.logger.error('both transfers confirmed for a withdrawal that cannot complete', {
      withdrawalId,
      status: moved.status,
    });
    return { invoiceIssued: false };
  }
  const completed = outcome.record;
  const invoice = await issueInvoiceIn(ctx, trx, basisOfWithdrawal(completed));
  ctx.logger.info('withdrawal completed', { withdrawalId, invoice: invoice.invoiceNumber });
  return { invoiceIssued: true };
};

/**
 * transfer.failed: the withdrawal fails with the reason (the first failure decides it; the other
 * transfer's outcome is still recorded). The reason says what did move, if anything.
 */
export const recordFailedIn = async (
  ctx: InvoicingContext,
  trx: Knex.Transaction,
  withdrawalId: string,
  leg: Leg,
  reason: string,
  txHash: string | null | undefined,
): Promise<void> => {
  const w = await lockWithdrawal(trx, withdrawalId);
  if (!w) {
    ctx.logger.warn('transfer.failed for an unknown withdrawal; dropped', { withdrawalId, leg });
    return;
  }
  const moved = await updateLeg(trx, withdrawalId, leg, ['requested', 'submitted'], 'failed', { txHash });
  if (!moved) {
    ctx.logger.warn(`transfer.failed for a ${leg} transfer that is ${w[leg].state}; dropped`, {
      withdrawalId,
      reason,
    });
    return;
  }
  const otherLeg = moved[other(leg)];
  const movedNote =
    otherLeg.state === 'confirmed' ? `; the ${legName(other(leg))} was confirmed (${otherLeg.txHash})` : '';
  const outcome = await ctx.withdrawals.apply(trx, withdrawalId, 'fail', {
    patch: { failure_reason: `The ${legName(leg)} failed: ${reason}${movedNote}`, failed_at: trx.fn.now() },
    events: (w) => ({
      type: 'withdrawal.failed',
      merchantId: w.merchantId,
      data: {
        ...withdrawalEventBase(w),
        reason: w.failureReason!,
        txHash: w.net.txHash,
        feeTxHash: w.fee.txHash,
        failedAt: w.failedAt!.toISOString(),
      },
    }),
  });
  if (!outcome.applied) {
    ctx.logger.info('transfer.failed for a withdrawal already ended; recorded', {
      withdrawalId,
      leg,
      status: moved.status,
    });
    return;
  }
  const log =
    otherLeg.state === 'confirmed' ? ctx.logger.error.bind(ctx.logger) : ctx.logger.warn.bind(ctx.logger);
  log('withdrawal failed', { withdrawalId, leg, reason });
};
