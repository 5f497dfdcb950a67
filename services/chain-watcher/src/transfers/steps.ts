import type { TransferRecord } from './transfers-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';

/**
 * What the worker does with a transfer after a step: nothing more, or look again after `delayMs`.
 * With `backoff` the delay is the transfer's own backoff instead, growing while the same obstacle
 * (a paused token) stands.
 */
export type Step = { done: true } | { done: false; delayMs: number; note: string | null; backoff?: boolean };

export const DONE: Step = { done: true };
export const again = (
  ctx: WatcherContext,
  note: string | null = null,
  delayMs = ctx.transfers.pollMs,
): Step => ({
  done: false,
  delayMs,
  note,
});

/** The parts of a transfer that exist once its request was accepted. */
export const parts = (t: TransferRecord) => {
  if (!t.fromAddress || !t.tokenAddress || t.amountUnits === null) {
    throw new Error(`transfer ${t.id} has no wallet, token or amount`);
  }
  return { from: t.fromAddress, token: t.tokenAddress, value: t.amountUnits };
};
