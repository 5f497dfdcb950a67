import { chainById } from '@stablepay/contracts';
import { errorText } from '@stablepay/platform';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import type { WatcherContext } from '../domain/context.js';
import { BroadcastRejected } from '../domain/transfer-attempts.js';
import { recordFailed } from '../domain/transfer-outcomes.js';
import { backoffDelay } from '../domain/transfer-rules.js';
import { sendFirst, type Step } from '../domain/transfer-send.js';
import { resolveSpent, watchTransfer } from '../domain/transfer-watch.js';
import {
  leaseDueTransfers,
  releaseTransferLeases,
  rescheduleTransfer,
  type TransferRecord,
} from '../db/transfers-repo.js';
import { forEachConcurrent, loopWorker, type LoopWorker } from '@stablepay/platform';

const step = async (ctx: WatcherContext, t: TransferRecord): Promise<Step> => {
  const chain = t.chainId === null ? undefined : chainById(ctx.registry, t.chainId);
  const rpc = t.chainId === null ? undefined : ctx.chains.get(t.chainId);
  if (!chain || !rpc) {
    if (t.status === 'pending') {
      await recordFailed(ctx, t, ['pending'], {
        code: 'chain_unavailable',
        reason: `${t.blockchain} is no longer served by this deployment`,
        txHash: null,
      });
      return { done: true };
    }
    // Something was signed: only the chain can say what became of it. Wait for it to come back.
    return { done: false, delayMs: ctx.transfers.maxBackoffMs, note: `${t.blockchain} is not configured` };
  }
  if (t.status === 'pending') return sendFirst(ctx, t, rpc, chain, () => resolveSpent(ctx, t, rpc, chain));
  return watchTransfer(ctx, t, rpc, chain);
};

/**
 * One step of a leased transfer, then its lease released with the next look scheduled. RPC failures
 * never decide anything, with one exception: a transfer nothing was signed for yet fails
 * `chain_unavailable` once its chain has failed TRANSFER_CHAIN_UNAVAILABLE_AFTER_MS. Once a
 * transaction is signed it may land whatever the RPC says, so only the chain can end it.
 */
export const advanceTransfer = async (ctx: WatcherContext, t: TransferRecord): Promise<void> => {
  const settings = ctx.transfers;
  try {
    const next = await step(ctx, t);
    if (next.done) return;
    await rescheduleTransfer(ctx.db, t.id, {
      delayMs: next.delayMs,
      backoffStep: 0,
      lastError: next.note,
      rpcFailing: false,
    });
  } catch (err) {
    const rpcDown = err instanceof RpcUnavailableError;
    const log = { idempotencyKey: t.idempotencyKey, chain: t.blockchain, err: errorText(err) };
    if (err instanceof BroadcastRejected) ctx.logger.warn('relayer transaction refused', log);
    else if (!rpcDown) ctx.logger.error('transfer step failed', log);
    const failingFor = t.rpcFailingSince ? Date.now() - t.rpcFailingSince.getTime() : 0;
    if (rpcDown && t.status === 'pending' && failingFor >= settings.chainUnavailableAfterMs) {
      const failed = await recordFailed(ctx, t, ['pending'], {
        code: 'chain_unavailable',
        reason: `${t.blockchain} could not be reached for ${Math.round(failingFor / 1000)} s; nothing was sent`,
        txHash: null,
      }).catch(() => false);
      if (failed) return;
    }
    await rescheduleTransfer(ctx.db, t.id, {
      delayMs: backoffDelay(t.backoffStep, settings.pollMs, settings.maxBackoffMs),
      backoffStep: t.backoffStep + 1,
      lastError: errorText(err).slice(0, 500),
      rpcFailing: rpcDown,
    }).catch((e: unknown) =>
      ctx.logger.warn('could not reschedule transfer', {
        idempotencyKey: t.idempotencyKey,
        err: errorText(e),
      }),
    );
  }
};

/**
 * Sends and watches outgoing transfers: leases a batch of due ones, advances each by one step with
 * bounded concurrency, repeats while batches come back full. Replicas run side by side.
 */
export const senderWorker = (
  ctx: WatcherContext,
  opts: { batchSize: number; concurrency: number },
): LoopWorker =>
  loopWorker({
    name: 'transfer-sender',
    intervalMs: ctx.transfers.pollMs,
    logger: ctx.logger,
    pass: async (stopping) => {
      const due = await leaseDueTransfers(ctx.db, opts.batchSize, ctx.transfers.leaseMs);
      if (due.length === 0) return false;
      const untouched: string[] = [];
      await forEachConcurrent(due, opts.concurrency, async (t) => {
        if (stopping()) untouched.push(t.id);
        else await advanceTransfer(ctx, t);
      });
      if (untouched.length > 0) await releaseTransferLeases(ctx.db, untouched);
      return due.length === opts.batchSize;
    },
  });
