import type { ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { TransferRecord } from './transfers-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';

/**
 * The transfer one step advances, with the chain it moves on and that chain's client: resolved once
 * per step from the record's chain id, then handed to every stage of the send and the watch.
 */
export interface TransferOnChain {
  t: TransferRecord;
  chain: ChainConfig;
  rpc: ChainRpc;
}

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
