import type { LoopWorker } from '@stablepay/platform';
import { leaseDueCctpPayments, releaseCctpLeases } from './cctp-repo.js';
import { advanceBridgeKitPayment } from './bridge-kit.js';
import { advanceRelayerPayment } from './relayer-flow.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { leasedBatchWorker } from '../work-rows/leased-batch-worker.js';

/** Moves cross-chain payments along their CCTP steps as the chains and the attestation API allow. */
export const cctpWorker = (
  ctx: WatcherContext,
  opts: { batchSize: number; concurrency: number },
): LoopWorker =>
  leasedBatchWorker({
    name: 'cctp-payments',
    intervalMs: ctx.cctp.pollMs,
    logger: ctx.logger,
    ...opts,
    lease: (limit) => leaseDueCctpPayments(ctx.db, limit, ctx.cctp.leaseMs),
    release: (rows) =>
      releaseCctpLeases(
        ctx.db,
        rows.map((p) => p.paymentId),
      ),
    correlationOf: (p) => p.correlationId,
    handlerFor: () => (p) =>
      p.flow === 'relayer' ? advanceRelayerPayment(ctx, p) : advanceBridgeKitPayment(ctx, p),
  });
