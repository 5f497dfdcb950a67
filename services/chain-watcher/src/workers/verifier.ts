import { loopWorker, type LoopWorker } from '@stablepay/platform';
import type { WatcherContext } from '../domain/context.js';
import { PassCache } from '../domain/verification/check-payment.js';
import { verifyPayment } from '../domain/verification/verify-payment.js';
import { recoverStaleCctp } from '../db/cctp-recovery-repo.js';
import { leaseDueVerifications, recoverStale, releaseLeases } from '../db/verifications-repo.js';
import { leasedBatchWorker } from './leased-batches.js';

/** Verifies due payments; the payments of one pass share their reads of the chain. */
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
      releaseLeases(
        ctx.db,
        rows.map((v) => v.paymentId),
      ),
    handlerFor: (rows) => {
      const cache = new PassCache();
      // The pass's receipts, one batch request per chain.
      for (const rpc of new Set(rows.map((v) => ctx.chains.get(v.chainId)))) {
        if (rpc)
          cache.prefetchReceipts(
            rpc,
            rows.filter((v) => v.chainId === rpc.chain.chainId).map((v) => v.txHash),
          );
      }
      return (v) => verifyPayment(ctx, v, cache);
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
