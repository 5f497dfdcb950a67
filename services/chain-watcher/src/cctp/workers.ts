import { EventTypes } from '@stablepay/contracts';
import type { ChainWatcherConfig } from '../config.js';
import type { CapabilityWorkers } from '../context/capability-workers.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { cctpWorker } from './cctp-worker.js';

/** Cross-chain payments share the verifiers' pacing: they are payments to verify too. */
export const cctpWorkers = (ctx: WatcherContext, config: ChainWatcherConfig): CapabilityWorkers => {
  const cctp = cctpWorker(ctx, {
    batchSize: config.VERIFY_BATCH_SIZE,
    concurrency: config.VERIFY_CONCURRENCY,
  });
  return {
    workers: [cctp],
    wakeOnEvents: [{ worker: cctp, by: (e) => e.type === EventTypes.PaymentCreated && e.data.isCrossChain }],
  };
};
