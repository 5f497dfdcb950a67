import { EventTypes } from '@stablepay/contracts';
import type { ChainWatcherConfig } from '../config.js';
import type { CapabilityWorkers } from '../context/capability-workers.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { scannerWorker } from './scanner-worker.js';
import { topUpVerifierWorker } from './top-up-verifier-worker.js';
import { recoveryWorker, verifierWorker } from './verifier-worker.js';

/** Verification's background work: the verifiers, the recovery of stale rows and the scanner. */
export const verificationWorkers = (ctx: WatcherContext, config: ChainWatcherConfig): CapabilityWorkers => {
  const batches = { batchSize: config.VERIFY_BATCH_SIZE, concurrency: config.VERIFY_CONCURRENCY };
  const verifier = verifierWorker(ctx, batches);
  const topUps = topUpVerifierWorker(ctx, batches);
  const recovery = recoveryWorker(ctx, {
    recoveryAfterMs: config.RECOVERY_AFTER_MS,
    onRecovered: () => verifier.wake(),
  });
  const scanner = scannerWorker(ctx, {
    intervalMs: config.SCAN_INTERVAL_MS,
    maxBlocks: config.SCAN_MAX_BLOCKS,
  });
  return {
    workers: [verifier, topUps, recovery, scanner],
    wakeOnEvents: [
      { worker: verifier, by: (e) => e.type === EventTypes.PaymentCreated && !e.data.isCrossChain },
      { worker: topUps, by: (e) => e.type === EventTypes.PaymentTopUpReported },
    ],
  };
};
