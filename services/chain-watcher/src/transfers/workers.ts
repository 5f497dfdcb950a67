import { EventTypes } from '@stablepay/contracts';
import type { ChainWatcherConfig } from '../config.js';
import type { CapabilityWorkers } from '../context/capability-workers.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { senderWorker } from './sender-worker.js';

export const transferWorkers = (ctx: WatcherContext, config: ChainWatcherConfig): CapabilityWorkers => {
  const sender = senderWorker(ctx, {
    batchSize: config.TRANSFER_BATCH_SIZE,
    concurrency: config.TRANSFER_CONCURRENCY,
  });
  return {
    workers: [sender],
    wakeOnEvents: [{ worker: sender, by: (e) => e.type === EventTypes.TransferRequested }],
  };
};
