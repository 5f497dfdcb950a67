import {
  errorText,
  forEachConcurrent,
  loopWorker,
  runWithContext,
  type LoopWorker,
} from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { PassCache } from './check-payment.js';
import { postponeAll, recordVerdicts, type PendingVerdict, type Wait } from './verdicts.js';
import { lookAt } from './verify-payment.js';
import { recoverStaleCctp } from '../cctp/cctp-recovery-repo.js';
import {
  leaseDueVerifications,
  recoverStale,
  releaseLeases,
  type VerificationRecord,
} from './verifications-repo.js';

/**
 * Verifies due payments, a leased batch per pass: the pass's reads of the chain are shared (one
 * receipt batch per chain, the head and blocks once), the payments are checked concurrently, and
 * then the verdicts are committed together and the payments that stay pending rescheduled together.
 * Rows leased but not checked when the service stops are handed back.
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
      cache.prefetchHolders(ctx.db, due);
      for (const rpc of new Set(due.map((v) => ctx.chains.get(v.chainId)))) {
        if (rpc)
          cache.prefetchReceipts(
            rpc,
            due.filter((v) => v.chainId === rpc.chain.chainId).map((v) => v.txHash),
          );
      }
      const verdicts: PendingVerdict[] = [];
      const waits: Array<{ v: VerificationRecord; outcome: Wait }> = [];
      const untouched: VerificationRecord[] = [];
      await forEachConcurrent(due, opts.concurrency, async (v) => {
        if (stopping()) untouched.push(v);
        else {
          const outcome = await runWithContext({ correlationId: v.correlationId ?? undefined }, () =>
            lookAt(ctx, v, cache),
          );
          if (outcome.kind === 'wait') waits.push({ v, outcome });
          else verdicts.push({ v, outcome });
        }
      });
      await recordVerdicts(ctx, verdicts);
      await postponeAll(ctx, waits).catch((err: unknown) =>
        ctx.logger.warn('could not reschedule verifications; their leases will run out', {
          count: waits.length,
          err: errorText(err),
        }),
      );
      if (untouched.length > 0)
        await releaseLeases(
          ctx.db,
          untouched.map((v) => v.paymentId),
        );
      return due.length === opts.batchSize;
    },
  });

/**
 * The recovery half that concerns tracked payments, same-chain and cross-chain: open rows nobody
 * looked at for RECOVERY_AFTER_MS are made due again. Rows survive any outage in the database and their events
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
      const cctp = await recoverStaleCctp(ctx.db, opts.recoveryAfterMs);
      if (n + cctp > 0) {
        ctx.metrics.recovered.inc(n + cctp);
        ctx.logger.warn('stale payments made due again', { sameChain: n, crossChain: cctp });
        opts.onRecovered();
      }
      return false;
    },
  });
