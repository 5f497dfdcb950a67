import { loopWorker, type LoopWorker } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { backfillLedger } from './backfill.js';

/** How soon a backfill that could not read every receipt (an RPC outage) is tried again. */
const RETRY_MS = 60_000;

/**
 * Builds the ledger from the history recorded before it existed, once, at start; again later while
 * some receipt could not be read. Afterwards each pass is one indexed read of a one-row table.
 */
export const ledgerBackfillWorker = (ctx: WatcherContext): LoopWorker => {
  let done = false;
  return loopWorker({
    name: 'ledger-backfill',
    intervalMs: RETRY_MS,
    logger: ctx.logger,
    pass: async () => {
      if (!done) done = (await backfillLedger(ctx)) === 'done';
      return false;
    },
  });
};
