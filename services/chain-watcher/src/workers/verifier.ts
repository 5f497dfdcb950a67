import { errorText } from '@stablepay/platform';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import { PassCache, checkPayment } from '../domain/check-payment.js';
import type { WatcherContext } from '../domain/context.js';
import { postpone, recordVerdict } from '../domain/verdicts.js';
import {
  leaseDueVerifications,
  recoverStale,
  releaseLeases,
  type VerificationRecord,
} from '../db/verifications-repo.js';
import { forEachConcurrent, loopWorker, type LoopWorker } from '@stablepay/platform';

/** Checks one leased payment and either commits its verdict or puts it back with a next check time. */
export const verifyOne = async (
  ctx: WatcherContext,
  v: VerificationRecord,
  cache: PassCache,
): Promise<void> => {
  try {
    const outcome = await checkPayment(ctx, v, cache);
    if (outcome.kind === 'wait') await postpone(ctx, v, outcome);
    else await recordVerdict(ctx, v, outcome);
  } catch (err) {
    const rpc = err instanceof RpcUnavailableError;
    if (!rpc) ctx.logger.error('verification failed', { paymentId: v.paymentId, err: errorText(err) });
    // Never a verdict: the payment stays pending and comes back with backoff. Should even this
    // write fail, the lease runs out and another pass takes the row.
    await postpone(ctx, v, {
      kind: 'wait',
      why: 'rpc',
      detail: errorText(err),
      blockNumber: null,
      blockHash: null,
    }).catch((e: unknown) =>
      ctx.logger.warn('could not reschedule verification', { paymentId: v.paymentId, err: errorText(e) }),
    );
  }
};

/**
 * Verifies due payments: leases a batch, checks them with bounded concurrency, repeats while batches
 * come back full. Replicas run side by side; the lease keeps each payment with one of them at a time.
 */
export const verifierWorker = (
  ctx: WatcherContext,
  opts: { batchSize: number; concurrency: number },
): LoopWorker =>
  loopWorker({
    name: 'payment-verifier',
    intervalMs: ctx.verification.pollMs,
    logger: ctx.logger,
    pass: async (stopping) => {
      const due = await leaseDueVerifications(ctx.db, opts.batchSize, ctx.verification.leaseMs);
      if (due.length === 0) return false;
      const cache = new PassCache();
      const untouched: string[] = [];
      await forEachConcurrent(due, opts.concurrency, async (v) => {
        if (stopping()) untouched.push(v.paymentId);
        else await verifyOne(ctx, v, cache);
      });
      // On shutdown, hand back what was leased but not started, so another replica need not wait
      // for the lease to run out.
      if (untouched.length > 0) await releaseLeases(ctx.db, untouched);
      return due.length === opts.batchSize;
    },
  });

/**
 * The recovery half that concerns tracked payments: pending rows nobody looked at for
 * RECOVERY_AFTER_MS are made due again. Rows survive any outage in the database and their events
 * wait in the queue, so a watcher that was down for an hour picks everything up from here.
 */
export const recoveryWorker = (
  ctx: WatcherContext,
  opts: { recoveryAfterMs: number; onRecovered: () => void },
): LoopWorker =>
  loopWorker({
    name: 'verification-recovery',
    intervalMs: Math.max(1_000, Math.min(60_000, Math.floor(opts.recoveryAfterMs / 4))),
    logger: ctx.logger,
    pass: async () => {
      const n = await recoverStale(ctx.db, opts.recoveryAfterMs);
      if (n > 0) {
        ctx.metrics.recovered.inc(n);
        ctx.logger.warn('stale verifications made due again', { count: n });
        opts.onRecovered();
      }
      return false;
    },
  });
