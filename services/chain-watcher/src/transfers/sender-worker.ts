import type { LoopWorker } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { advanceTransfer } from './advance.js';
import { leaseDueTransfers, releaseTransferLeases } from './transfers-repo.js';
import { leasedBatchWorker } from '../work-rows/leased-batch-worker.js';

/** Sends and watches outgoing transfers, one step of each due transfer per pass. */
export const senderWorker = (
  ctx: WatcherContext,
  opts: { batchSize: number; concurrency: number },
): LoopWorker =>
  leasedBatchWorker({
    name: 'transfer-sender',
    intervalMs: ctx.transfers.pollMs,
    logger: ctx.logger,
    ...opts,
    lease: (limit) => leaseDueTransfers(ctx.db, limit, ctx.transfers.leaseMs),
    release: (rows) =>
      releaseTransferLeases(
        ctx.db,
        rows.map((t) => t.id),
      ),
    correlationOf: (t) => t.correlationId,
    handlerFor: () => (t) => advanceTransfer(ctx, t),
  });
