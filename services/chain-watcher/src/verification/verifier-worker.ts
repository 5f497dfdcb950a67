import { errorText, loopWorker, type LoopWorker } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { recoverStaleCctp } from '../cctp/cctp-recovery-repo.js';
import { heartbeatEvery, leasedBatchWorker, type BatchHandler } from '../work-rows/leased-batch-worker.js';
import { PassCache } from './check-payment.js';
import { PAYMENT_CHECKS, releaseCheckLeases, renewCheckLeases } from './checks-repo.js';
import type { Wait } from './rules.js';
import { postponeAll } from './verdict-commit.js';
import { PAYMENT_VERDICTS, recordVerdicts, type PendingVerdict } from './verdicts.js';
import { lookAt } from './verify-payment.js';
import { leaseDueVerifications, recoverStale, type VerificationRecord } from './verifications-repo.js';

/**
 * One pass's batch: the chain reads are shared (one receipt batch per chain, the head and blocks
 * once), the payments are checked concurrently, and then the verdicts are committed together and
 * the payments that stay pending rescheduled together.
 */
const verifyBatch = (
  ctx: WatcherContext,
  due: readonly VerificationRecord[],
): BatchHandler<VerificationRecord> => {
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
  return {
    handle: async (v) => {
      const outcome = await lookAt(ctx, v, cache);
      if (outcome.kind === 'wait') waits.push({ v, outcome });
      else verdicts.push({ v, outcome });
    },
    finish: async () => {
      await recordVerdicts(ctx, verdicts);
      await postponeAll(ctx, PAYMENT_VERDICTS, waits).catch((err: unknown) =>
        ctx.logger.warn('could not reschedule verifications; their leases will run out', {
          count: waits.length,
          err: errorText(err),
        }),
      );
    },
  };
};

/** Verifies due payments, a leased batch per pass (see verifyBatch and leasedBatchWorker). */
export const verifierWorker = (
  ctx: WatcherContext,
  opts: { batchSize: number; concurrency: number },
): LoopWorker =>
  leasedBatchWorker({
    name: 'payment-verifier',
    intervalMs: ctx.verification.pollMs,
    logger: ctx.logger,
    ...opts,
    lease: (limit) => leaseDueVerifications(ctx.db, limit, ctx.verification.leaseMs),
    release: (rows) =>
      releaseCheckLeases(
        ctx.db,
        PAYMENT_CHECKS,
        rows.map((v) => v.paymentId),
      ),
    heartbeat: {
      everyMs: heartbeatEvery(ctx.verification.leaseMs),
      renew: (rows) =>
        renewCheckLeases(
          ctx.db,
          PAYMENT_CHECKS,
          rows.map((v) => v.paymentId),
          ctx.verification.leaseMs,
        ),
    },
    correlationOf: (v) => v.correlationId,
    handlerFor: (due) => verifyBatch(ctx, due),
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
