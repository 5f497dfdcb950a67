import type { ChainWatcherConfig } from '../config.js';
import type { CapabilityWorkers } from '../context/capability-workers.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { ledgerBackfillWorker } from './backfill-worker.js';
import { reconcilerWorker } from './reconciler-worker.js';

/** The ledger follows what the other capabilities record; no event wakes it. */
export const ledgerWorkers = (ctx: WatcherContext, config: ChainWatcherConfig): CapabilityWorkers => ({
  workers: [reconcilerWorker(ctx, { intervalMs: config.RECONCILE_INTERVAL_MS }), ledgerBackfillWorker(ctx)],
  wakeOnEvents: [],
});
