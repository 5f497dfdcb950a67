import {
  errorText,
  forEachConcurrent,
  loopWorker,
  runWithContext,
  type LoopWorker,
} from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { recordTopUpVerdict } from './top-up-verdicts.js';
import { PassCache } from './check-payment.js';
import { reject, type Outcome } from './rules.js';
import { rescheduleOf } from './verdicts.js';
import { lookAt } from './verify-payment.js';
import {
  leaseDueTopUps,
  releaseTopUpLeases,
  rescheduleTopUp,
  type TopUpVerificationRecord,
} from './top-ups-repo.js';
import { findVerification } from './verifications-repo.js';

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

/**
 * Verifies reported top-ups, a leased batch per pass, each checked like a payment's transaction
 * and decided on its own (top-ups are few: one customer's second or third transfer).
 */
export const topUpVerifierWorker = (
  ctx: WatcherContext,
  opts: { batchSize: number; concurrency: number },
): LoopWorker =>
  loopWorker({
    name: 'top-up-verifier',
    intervalMs: ctx.verification.pollMs,
    logger: ctx.logger,
    pass: async (stopping) => {
      const due = await leaseDueTopUps(ctx.db, opts.batchSize, ctx.verification.leaseMs);
      if (due.length === 0) return false;
      const cache = new PassCache();
      const untouched: string[] = [];
      await forEachConcurrent(due, opts.concurrency, async (v) => {
        if (stopping()) {
          untouched.push(v.topUpId);
          return;
        }
        await runWithContext({ correlationId: v.correlationId ?? undefined }, async () => {
          const outcome = await lookAtTopUp(ctx, v, cache);
          if (outcome.kind === 'wait')
            await rescheduleTopUp(ctx.db, v.topUpId, rescheduleOf(ctx, v, outcome));
          else await recordTopUpVerdict(ctx, v, outcome);
        }).catch((err: unknown) =>
          ctx.logger.warn('could not record a top-up check; its lease will run out', {
            topUpId: v.topUpId,
            err: errorText(err),
          }),
        );
      });
      if (untouched.length > 0) await releaseTopUpLeases(ctx.db, untouched);
      return due.length === opts.batchSize;
    },
  });
