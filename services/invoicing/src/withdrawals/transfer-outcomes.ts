import type { Knex } from 'knex';
import { lockWithdrawal, setLegTxHash, transitionWithdrawalRow, updateLeg } from './withdrawals-repo.js';
import { writeEvent, type InvoicingContext } from '../context.js';
import { basisOfWithdrawal, issueInvoiceIn } from '../invoices/issue-invoice.js';
import type { Leg, WithdrawalRecord } from './records.js';
import { legName, statusesLeadingTo } from './withdrawal-rules.js';

/**
 * The chain-watcher's reports on a withdrawal's two transfers. Each runs in the inbox transaction of
 * its message with the withdrawal row locked, so the reports on the net and the fee transfer are
 * applied one after the other and exactly one of them sees both confirmed. A report that does not
 * fit (a repeat, a withdrawal unknown here) is logged and dropped: retrying could never make it fit.
 */

const other = (leg: Leg): Leg => (leg === 'net' ? 'fee' : 'net');

const eventBase = (w: WithdrawalRecord) => ({
  withdrawalId: w.id,
  merchantId: w.merchantId,
  amount: w.grossAmount,
  fee: w.feeAmount,
  netAmount: w.netAmount,
  currency: w.currency,
  blockchain: w.blockchain,
  destinationAddress: w.destinationAddress,
  treasuryAddress: w.treasuryAddress,
});

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
  await transitionWithdrawalRow(trx, withdrawalId, ['requested'], 'processing', {
    processing_at: trx.fn.now(),
  });
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
    await transitionWithdrawalRow(trx, withdrawalId, ['requested'], 'processing', {
      processing_at: trx.fn.now(),
    });
    if (moved.status === 'failed') {
      // Money moved for a withdrawal that failed on its other transfer: an operator has to look at it.
      ctx.logger.error(`the ${legName(leg)} of a failed withdrawal was confirmed`, { withdrawalId, txHash });
    }
    return { invoiceIssued: false };
  }
  const completed = await transitionWithdrawalRow(
    trx,
    withdrawalId,
    statusesLeadingTo('completed'),
    'completed',
    {
      completed_at: trx.fn.now(),
    },
  );
  if (!completed) {
    ctx.logger.error('both transfers confirmed for a withdrawal that cannot complete', {
      withdrawalId,
      status: moved.status,
    });
    return { invoiceIssued: false };
  }
  await writeEvent(trx, 'withdrawal.completed', completed.merchantId, {
    ...eventBase(completed),
    txHash: completed.net.txHash!,
    feeTxHash: completed.fee.txHash!,
    completedAt: completed.completedAt!.toISOString(),
  });
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
  const failed = await transitionWithdrawalRow(trx, withdrawalId, statusesLeadingTo('failed'), 'failed', {
    failure_reason: `The ${legName(leg)} failed: ${reason}${movedNote}`,
    failed_at: trx.fn.now(),
  });
  if (!failed) {
    ctx.logger.info('transfer.failed for a withdrawal already ended; recorded', {
      withdrawalId,
      leg,
      status: moved.status,
    });
    return;
  }
  await writeEvent(trx, 'withdrawal.failed', failed.merchantId, {
    ...eventBase(failed),
    reason: failed.failureReason!,
    txHash: failed.net.txHash,
    feeTxHash: failed.fee.txHash,
    failedAt: failed.failedAt!.toISOString(),
  });
  const log =
    otherLeg.state === 'confirmed' ? ctx.logger.error.bind(ctx.logger) : ctx.logger.warn.bind(ctx.logger);
  log('withdrawal failed', { withdrawalId, leg, reason });
};
