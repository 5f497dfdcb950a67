import type { Knex } from 'knex';
import { EventTypes, type TransferFailureReason } from '@stablepay/contracts';
import {
  finishTransfer,
  markSubmitted,
  type TransferRecord,
  type TransferStatus,
} from '../db/transfers-repo.js';
import { writeEvent } from '../messaging/events.js';
import type { WatcherContext } from './context.js';

/*
 * Every outcome is a guarded state change and its outbox event in one transaction: whatever workers
 * race, each event is written once. `transfer.submitted` commits in a transaction of its own before
 * any final outcome, so the relay (ordered by creation time) publishes it first.
 */

/** transfer.submitted, once per transfer: the first transaction known to have reached a node. */
export const recordSubmitted = async (
  ctx: WatcherContext,
  t: TransferRecord,
  txHash: string,
): Promise<boolean> => {
  const written = await ctx.db.transaction(async (trx) => {
    if (!(await markSubmitted(trx, t.id))) return false;
    await writeEvent(trx, EventTypes.TransferSubmitted, t.merchantId, {
      idempotencyKey: t.idempotencyKey,
      purpose: t.purpose,
      txHash,
      blockchain: t.blockchain,
    });
    return true;
  });
  if (written) {
    ctx.eventsCommitted();
    ctx.logger.info('transfer submitted', { idempotencyKey: t.idempotencyKey, chain: t.blockchain, txHash });
  }
  return written;
};

const observe = (ctx: WatcherContext, t: TransferRecord, outcome: string, code: string): void => {
  ctx.metrics.transferOutcomes.inc({ chain: t.blockchain, outcome, code });
  ctx.metrics.transferLatency.observe(
    { chain: t.blockchain, outcome },
    Math.max(0, (Date.now() - t.createdAt.getTime()) / 1000),
  );
};

/** transfer.confirmed with the transaction that moved the tokens, `confirmations` deep. */
export const recordConfirmed = async (
  ctx: WatcherContext,
  t: TransferRecord,
  mined: { txHash: string; blockNumber: number; blockHash: string },
): Promise<boolean> => {
  if (!t.submittedAt) await recordSubmitted(ctx, t, mined.txHash);
  const written = await ctx.db.transaction(async (trx) => {
    if (
      !(await finishTransfer(trx, t.id, ['pending', 'sending', 'cancelling'], {
        status: 'confirmed',
        ...mined,
      }))
    )
      return false;
    await writeEvent(trx, EventTypes.TransferConfirmed, t.merchantId, {
      idempotencyKey: t.idempotencyKey,
      purpose: t.purpose,
      txHash: mined.txHash,
      blockNumber: mined.blockNumber,
    });
    return true;
  });
  if (written) {
    ctx.eventsCommitted();
    observe(ctx, t, 'confirmed', 'ok');
    ctx.logger.info('transfer confirmed', {
      idempotencyKey: t.idempotencyKey,
      chain: t.blockchain,
      txHash: mined.txHash,
      blockNumber: mined.blockNumber,
    });
  }
  return written;
};

/** transfer.failed from one of the open states `from`. */
export const recordFailed = async (
  ctx: WatcherContext,
  t: TransferRecord,
  from: TransferStatus[],
  failure: { code: TransferFailureReason; reason: string; txHash: string | null },
): Promise<boolean> => {
  const written = await ctx.db.transaction(async (trx) => {
    if (!(await finishTransfer(trx, t.id, from, { status: 'failed', ...failure }))) return false;
    await writeFailedEvent(trx, t, failure);
    return true;
  });
  if (written) {
    ctx.eventsCommitted();
    observe(ctx, t, 'failed', failure.code);
    ctx.logger.warn('transfer failed', {
      idempotencyKey: t.idempotencyKey,
      chain: t.blockchain,
      code: failure.code,
      reason: failure.reason,
      txHash: failure.txHash,
    });
  }
  return written;
};

export const writeFailedEvent = (
  trx: Knex.Transaction,
  t: Pick<TransferRecord, 'merchantId' | 'idempotencyKey' | 'purpose'>,
  failure: { code: TransferFailureReason; reason: string; txHash: string | null },
): Promise<void> =>
  writeEvent(trx, EventTypes.TransferFailed, t.merchantId, {
    idempotencyKey: t.idempotencyKey,
    purpose: t.purpose,
    reason: failure.reason,
    code: failure.code,
    txHash: failure.txHash,
  });

/**
 * The known outcome of a finished transfer, written again (a requester asked again after the
 * answer). Returns false for a transfer still open: its outcome is published when it comes.
 */
export const republishOutcome = async (trx: Knex.Transaction, t: TransferRecord): Promise<boolean> => {
  if (t.status === 'confirmed' && t.txHash && t.blockNumber !== null) {
    await writeEvent(trx, EventTypes.TransferConfirmed, t.merchantId, {
      idempotencyKey: t.idempotencyKey,
      purpose: t.purpose,
      txHash: t.txHash,
      blockNumber: t.blockNumber,
    });
    return true;
  }
  if (t.status === 'failed') {
    await writeFailedEvent(trx, t, {
      code: t.failureCode ?? 'unknown',
      reason: t.failureReason ?? 'the transfer failed',
      txHash: t.txHash,
    });
    return true;
  }
  return false;
};
