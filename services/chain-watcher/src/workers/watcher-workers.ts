import type { Worker } from '@stablepay/platform';
import type { ChainWatcherConfig } from '../config.js';
import type { WatcherContext } from '../domain/context.js';
import { reconcilerWorker } from '../ledger/reconciler-worker.js';
import { cctpWorker } from './cctp.js';
import { ledgerBackfillWorker } from './ledger-backfill.js';
import { scannerWorker } from './scanner.js';
import { senderWorker } from './sender.js';
import { topUpVerifierWorker } from './top-up-verifier.js';
import { recoveryWorker, verifierWorker } from './verifier.js';

/**
 * The background work of the worker role, paced by configuration. `wake` starts a verifier, a sender
 * and a CCTP pass at once, for work a consumed event has just committed.
 */
export const watcherWorkers = (
  ctx: WatcherContext,
  config: ChainWatcherConfig,
): { workers: Worker[]; wake: () => void } => {
  const verifier = verifierWorker(ctx, {
    batchSize: config.VERIFY_BATCH_SIZE,
    concurrency: config.VERIFY_CONCURRENCY,
  });
  const sender = senderWorker(ctx, {
    batchSize: config.TRANSFER_BATCH_SIZE,
    concurrency: config.TRANSFER_CONCURRENCY,
  });
  const recovery = recoveryWorker(ctx, {
    recoveryAfterMs: config.RECOVERY_AFTER_MS,
    onRecovered: () => verifier.wake(),
  });
  const scanner = scannerWorker(ctx, {
    intervalMs: config.SCAN_INTERVAL_MS,
    maxBlocks: config.SCAN_MAX_BLOCKS,
  });
  const cctp = cctpWorker(ctx, {
    batchSize: config.VERIFY_BATCH_SIZE,
    concurrency: config.VERIFY_CONCURRENCY,
  });
  const topUps = topUpVerifierWorker(ctx, {
    batchSize: config.VERIFY_BATCH_SIZE,
    concurrency: config.VERIFY_CONCURRENCY,
  });
  const reconciler = reconcilerWorker(ctx, { intervalMs: config.RECONCILE_INTERVAL_MS });
  return {
    workers: [verifier, topUps, sender, recovery, scanner, cctp, reconciler, ledgerBackfillWorker(ctx)],
    wake: () => {
      verifier.wake();
      topUps.wake();
      sender.wake();
      cctp.wake();
    },
  };
};
