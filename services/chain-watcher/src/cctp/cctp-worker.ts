import type { LoopWorker } from '@stablepay/platform';
import { leaseDueCctpPayments, releaseCctpLeases, renewCctpLeases } from './cctp-repo.js';
import { advanceBridgeKitPayment } from './bridge-kit.js';
import { advanceRelayerPayment } from './relayer-flow.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { heartbeatEvery, leasedBatchWorker } from '../work-rows/leased-batch-worker.js';

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
    heartbeat: {
      everyMs: heartbeatEvery(ctx.cctp.leaseMs),
      renew: (rows) =>
        renewCctpLeases(
          ctx.db,
          rows.map((p) => p.paymentId),
          ctx.cctp.leaseMs,
        ),
    },
    correlationOf: (p) => p.correlationId,
    handlerFor: () => (p) =>
      p.flow === 'relayer' ? advanceRelayerPayment(ctx, p) : advanceBridgeKitPayment(ctx, p),
  });
