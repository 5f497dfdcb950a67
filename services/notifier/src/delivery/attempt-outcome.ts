import { WEBHOOK_MAX_CONSECUTIVE_FAILURES } from '@stablepay/contracts';
import {
  completeAttempt,
  failPendingAttempts,
  finishDelivery,
  scheduleNextAttempt,
  type ClaimedAttempt,
} from './attempts-repo.js';
import { countFailure, disableEndpoint, lockEndpoint } from '../webhooks/endpoints-repo.js';
import type { WebhookResult } from './webhook-sender.js';
import type { NotifierContext } from '../context.js';
import { queueDisabledNotice } from '../mail/account-emails.js';

export const DISABLED_ERROR = 'endpoint disabled';

export interface RecordedOutcome {
  /** false: the lease had passed to another replica (or the endpoint was deleted); nothing written */
  recorded: boolean;
  /** the endpoint was disabled by this failure */
  disabled: boolean;
  /** when the next attempt was scheduled, its delay */
  retryInMs?: number;
  emailsQueued: number;
}

const isDeadlock = (err: unknown) =>
  ['40P01', '40001'].includes((err as { code?: string } | null)?.code ?? '');

/**
 * Writes one attempt's outcome and its consequences. Successes are written in batches (one
 * statement for many, see SuccessBatch). A failure is one
 * transaction with the endpoint row locked first (every writer that touches an endpoint's attempts
 * in bulk takes that lock first): the attempt (only while our lease holds), the next attempt or
 * the delivery's end, the endpoint's consecutive-failure count, and at exactly
 * WEBHOOK_MAX_CONSECUTIVE_FAILURES the endpoint's disabling, the failing of what waited for it and
 * the merchant's notice. A deadlock (possible only around an expired lease) is simply retried.
 */
export const recordAttemptOutcome = async (
  ctx: NotifierContext,
  a: ClaimedAttempt,
  result: WebhookResult,
  retryInMs: number | undefined,
): Promise<RecordedOutcome> => {
  for (let tries = 1; ; tries++) {
    try {
      if (result.ok) {
        const recorded = await ctx.successes.record(a, {
          responseStatus: result.status,
          responseTimeMs: result.timeMs,
          error: result.error,
          excerpt: result.excerpt,
        });
        return { recorded, disabled: false, emailsQueued: 0 };
      }
      return await recordFailure(ctx, a, result, retryInMs);
    } catch (err) {
      if (!isDeadlock(err) || tries >= 3) throw err;
    }
  }
};

const recordFailure = (
  ctx: NotifierContext,
  a: ClaimedAttempt,
  result: WebhookResult,
  retryInMs: number | undefined,
): Promise<RecordedOutcome> =>
  ctx.db.transaction(async (trx) => {
    const none: RecordedOutcome = { recorded: false, disabled: false, emailsQueued: 0 };
    const endpoint = await lockEndpoint(trx, a.endpointId);
    if (!endpoint) return none;
    const written = await completeAttempt(trx, a, {
      succeeded: false,
      responseStatus: result.status,
      responseTimeMs: result.timeMs,
      error: result.error,
      excerpt: result.excerpt,
    });
    if (!written) return none;
    const retry = endpoint.isActive ? retryInMs : undefined;
    if (retry !== undefined) await scheduleNextAttempt(trx, a, retry);
    else await finishDelivery(trx, a.deliveryId, 'failed', a.attempt);
    const failures = await countFailure(trx, a.endpointId);
    if (failures === undefined || failures < WEBHOOK_MAX_CONSECUTIVE_FAILURES) {
      return { recorded: true, disabled: false, retryInMs: retry, emailsQueued: 0 };
    }
    const reason = `${failures} consecutive failed deliveries`;
    if (!(await disableEndpoint(trx, a.endpointId, reason))) {
      return { recorded: true, disabled: false, retryInMs: retry, emailsQueued: 0 };
    }
    await failPendingAttempts(trx, a.endpointId, DISABLED_ERROR);
    const emailsQueued = await queueDisabledNotice(ctx, trx, {
      attemptId: a.id,
      merchantId: endpoint.merchantId,
      endpointId: endpoint.id,
      url: endpoint.url,
      failures,
      lastError: result.error,
    });
    return { recorded: true, disabled: true, emailsQueued };
  });
