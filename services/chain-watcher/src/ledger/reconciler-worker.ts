import { loopWorker, type LoopWorker } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { reconcileLedger } from './reconcile.js';

/**
 * Compares the ledger with the chain every `intervalMs` (at most a minute, so that a movement nobody
 * recorded is seen within one). Replicas share the schedule: a run that another one made less than
 * most of an interval ago is not repeated.
 */
export const reconcilerWorker = (ctx: WatcherContext, opts: { intervalMs: number }): LoopWorker =>
  loopWorker({
    name: 'ledger-reconciler',
    intervalMs: opts.intervalMs,
    logger: ctx.logger,
    pass: async () => {
      const summary = await reconcileLedger(ctx, Math.floor(opts.intervalMs * 0.8));
      if (summary) {
        ctx.logger.debug('ledger reconciled', {
          wallets: summary.wallets,
          discrepancies: summary.discrepancies.length,
          unreadable: summary.unreadable,
        });
      }
      return false;
    },
  });
