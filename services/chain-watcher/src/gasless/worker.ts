import { EventTypes } from '@stablepay/contracts';
import { errorText, type LoopWorker } from '@stablepay/platform';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import type { ChainWatcherConfig } from '../config.js';
import type { CapabilityWorkers } from '../context/capability-workers.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { BroadcastRejected } from '../relayer/broadcast.js';
import { heartbeatEvery, leasedBatchWorker } from '../work-rows/leased-batch-worker.js';
import {
  leaseDueGaslessPayments,
  releaseGaslessLeases,
  renewGaslessLeases,
  rescheduleGasless,
  type GaslessPaymentRecord,
} from './gasless-repo.js';
import { lookAtGasless } from './look.js';
import { waitFor, type GaslessWait } from './outcome.js';

/**
 * One look, and when the payment stays in `submit`, the next: at the poll pace while blocks are
 * awaited, with growing back-off while something is missing or failing. A failure is never a verdict.
 */
const advance = async (ctx: WatcherContext, p: GaslessPaymentRecord): Promise<void> => {
  let outcome: GaslessWait | undefined;
  try {
    outcome = await lookAtGasless(ctx, p);
  } catch (err) {
    if (err instanceof BroadcastRejected) ctx.logger.warn('gasless submission refused', { err: err.message });
    else if (!(err instanceof RpcUnavailableError))
      ctx.logger.error('gasless submission step failed', { paymentId: p.paymentId, err: errorText(err) });
    outcome = waitFor(errorText(err));
  }
  if (!outcome) return;
  const { pollMs, maxBackoffMs } = ctx.gasless;
  const backoffStep = outcome.steady ? 0 : p.backoffStep + 1;
  const backoff = Math.min(maxBackoffMs, pollMs * 2 ** Math.min(backoffStep, 16));
  await rescheduleGasless(ctx.db, p.paymentId, { delayMs: outcome.steady ? pollMs : backoff, backoffStep });
};

/** Submits customers' authorizations and follows them until the transaction that used one is found. */
export const gaslessWorker = (
  ctx: WatcherContext,
  opts: { batchSize: number; concurrency: number },
): LoopWorker =>
  leasedBatchWorker({
    name: 'gasless-submissions',
    intervalMs: ctx.gasless.pollMs,
    logger: ctx.logger,
    ...opts,
    lease: (limit) => leaseDueGaslessPayments(ctx.db, limit, ctx.gasless.leaseMs),
    release: (rows) =>
      releaseGaslessLeases(
        ctx.db,
        rows.map((p) => p.paymentId),
      ),
    heartbeat: {
      everyMs: heartbeatEvery(ctx.gasless.leaseMs),
      renew: (rows) =>
        renewGaslessLeases(
          ctx.db,
          rows.map((p) => p.paymentId),
          ctx.gasless.leaseMs,
        ),
    },
    correlationOf: (p) => p.correlationId,
    handlerFor: () => (p) => advance(ctx, p),
  });

/** Gasless payments share the transfer sender's pacing: both are the relayer's transactions. */
export const gaslessWorkers = (ctx: WatcherContext, config: ChainWatcherConfig): CapabilityWorkers => {
  const worker = gaslessWorker(ctx, {
    batchSize: config.TRANSFER_BATCH_SIZE,
    concurrency: config.TRANSFER_CONCURRENCY,
  });
  return {
    workers: [worker],
    wakeOnEvents: [{ worker, by: (e) => e.type === EventTypes.PaymentAuthorizationReceived }],
  };
};
