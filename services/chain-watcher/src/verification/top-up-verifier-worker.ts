import { errorText, type LoopWorker } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { heartbeatEvery, leasedBatchWorker } from '../work-rows/leased-batch-worker.js';
import { PassCache } from './check-payment.js';
import { TOP_UP_CHECKS, releaseCheckLeases, renewCheckLeases } from './checks-repo.js';
import { reject, type Outcome } from './rules.js';
import { TOP_UP_VERDICTS, recordTopUpVerdict } from './top-up-verdicts.js';
import { leaseDueTopUps, type TopUpVerificationRecord } from './top-ups-repo.js';
import { postponeAll } from './verdict-commit.js';
import { findVerification } from './verifications-repo.js';
import { lookAt } from './verify-payment.js';

/**
 * One look at a reported top-up: the rules of a payment's transaction (chain, token, sender,
 * recipient, session time, depth, claims), counting whatever the payer moved. The payment's own
 * transaction is counted already and tops nothing up.
 */
const lookAtTopUp = async (
  ctx: WatcherContext,
  v: TopUpVerificationRecord,
  cache: PassCache,
): Promise<Outcome> => {
  const own = (await findVerification(ctx.db, v.paymentId)) as { tx_hash: string } | undefined;
  if (own?.tx_hash === v.txHash) {
    return reject('already_claimed', `transaction ${v.txHash} is the payment's own, already counted`);
  }
  return lookAt(ctx, v, cache);
};

/** Checks one top-up and records what it concluded: a verdict, or when to look again. */
const checkTopUp = async (ctx: WatcherContext, v: TopUpVerificationRecord, cache: PassCache) => {
  const outcome = await lookAtTopUp(ctx, v, cache);
  if (outcome.kind === 'wait') await postponeAll(ctx, TOP_UP_VERDICTS, [{ v, outcome }]);
  else await recordTopUpVerdict(ctx, v, outcome);
};

/**
 * Verifies reported top-ups, a leased batch per pass, each checked like a payment's transaction
 * and decided on its own (top-ups are few: one customer's second or third transfer).
 */
export const topUpVerifierWorker = (
  ctx: WatcherContext,
  opts: { batchSize: number; concurrency: number },
): LoopWorker =>
  leasedBatchWorker({
    name: 'top-up-verifier',
    intervalMs: ctx.verification.pollMs,
    logger: ctx.logger,
    ...opts,
    lease: (limit) => leaseDueTopUps(ctx.db, limit, ctx.verification.leaseMs),
    release: (rows) =>
      releaseCheckLeases(
        ctx.db,
        TOP_UP_CHECKS,
        rows.map((v) => v.topUpId),
      ),
    heartbeat: {
      everyMs: heartbeatEvery(ctx.verification.leaseMs),
      renew: (rows) =>
        renewCheckLeases(
          ctx.db,
          TOP_UP_CHECKS,
          rows.map((v) => v.topUpId),
          ctx.verification.leaseMs,
        ),
    },
    correlationOf: (v) => v.correlationId,
    handlerFor: () => {
      const cache = new PassCache();
      return async (v) => {
        await checkTopUp(ctx, v, cache).catch((err: unknown) => {
          ctx.logger.warn('could not record a top-up check; its lease will run out', {
            topUpId: v.topUpId,
            err: errorText(err),
          });
        });
      };
    },
  });
