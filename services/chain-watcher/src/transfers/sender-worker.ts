import type { LoopWorker } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { advanceTransfer } from './advance.js';
import { leaseDueTransfers, releaseTransferLeases, renewTransferLeases } from './transfers-repo.js';
import { heartbeatEvery, leasedBatchWorker } from '../work-rows/leased-batch-worker.js';

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
    // Renewed while a step runs, however many RPC calls it makes: never sent twice rests on the
    // guarded writes and the authorization's nonce (see send.ts), the lease only spares wasted calls.
    heartbeat: {
      everyMs: heartbeatEvery(ctx.transfers.leaseMs),
      renew: (rows) =>
        renewTransferLeases(
          ctx.db,
          rows.map((t) => t.id),
          ctx.transfers.leaseMs,
        ),
    },
    correlationOf: (t) => t.correlationId,
    handlerFor: () => (t) => advanceTransfer(ctx, t),
  });
