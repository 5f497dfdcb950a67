import { chainById } from '@stablepay/contracts';
import { errorText } from '@stablepay/platform';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import { rescheduleTransfer, type TransferRecord } from './transfers-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { BroadcastRejected } from '../relayer/broadcast.js';
import { recordFailed } from './outcomes.js';
import { backoffDelay, chainUnavailableReason } from './rules.js';
import { sendFirst } from './send.js';
import { DONE, type Step } from './steps.js';
import { resolveSpent, watchTransfer } from './watch.js';

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
      return DONE;
    }
    // Something was signed: only the chain can say what became of it. Wait for it to come back.
    return { done: false, delayMs: ctx.transfers.maxBackoffMs, note: `${t.blockchain} is not configured` };
  }
  const job = { t, rpc, chain };
  if (t.status === 'pending') return sendFirst(ctx, job, () => resolveSpent(ctx, job));
  return watchTransfer(ctx, job);
};

/**
 * One step of a leased transfer, then its lease released with the next look scheduled. RPC failures
 * never decide anything, except as chainUnavailableReason says (nothing signed yet, the chain
 * unreachable for TRANSFER_CHAIN_UNAVAILABLE_AFTER_MS).
 */
export const advanceTransfer = async (ctx: WatcherContext, t: TransferRecord): Promise<void> => {
  const settings = ctx.transfers;
  try {
    const next = await step(ctx, t);
    if (next.done) return;
    await rescheduleTransfer(ctx.db, t.id, {
      delayMs: next.backoff
        ? backoffDelay(t.backoffStep, settings.pollMs, settings.maxBackoffMs)
        : next.delayMs,
      backoffStep: next.backoff ? t.backoffStep + 1 : 0,
      lastError: next.note,
      rpcFailing: false,
    });
  } catch (err) {
    const rpcDown = err instanceof RpcUnavailableError;
    const log = { idempotencyKey: t.idempotencyKey, chain: t.blockchain, err: errorText(err) };
    if (err instanceof BroadcastRejected) ctx.logger.warn('relayer transaction refused', log);
    else if (!rpcDown) ctx.logger.error('transfer step failed', log);
    const unavailable = rpcDown ? chainUnavailableReason(t, settings.chainUnavailableAfterMs) : undefined;
    if (unavailable) {
      const failed = await recordFailed(ctx, t, ['pending'], {
        code: 'chain_unavailable',
        reason: unavailable,
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
