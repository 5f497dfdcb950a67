import { errorText } from '@stablepay/platform';
import type { ClaimedAttempt } from './attempts-repo.js';
import { recordAttemptOutcome } from './attempt-outcome.js';
import type { NotifierContext } from '../context.js';
import { nextRetryDelay } from './retry-schedule.js';
import { SecretUnavailableError } from '../webhooks/secrets.js';
import type { WebhookResult } from './webhook-sender.js';
import type { EndpointKeys } from '../webhooks/signature.js';

/**
 * Signs and sends one leased attempt, with no transaction open. Should the process die before its
 * outcome is recorded, the lease runs out and another replica sends the attempt again: at least
 * once, and receivers deduplicate by X-Service-Event-Id.
 */
export const sendAttempt = async (ctx: NotifierContext, a: ClaimedAttempt): Promise<WebhookResult> => {
  let secret: EndpointKeys;
  try {
    secret = ctx.signingKeys.keysFor(a.endpointId, a.secretSealed);
  } catch (err) {
    if (!(err instanceof SecretUnavailableError)) throw err;
    ctx.logger.error('webhook secret cannot be opened', { endpointId: a.endpointId, err: errorText(err) });
    return {
      ok: false,
      status: null,
      timeMs: 0,
      error: 'internal: signing secret unavailable',
      excerpt: null,
    };
  }
  return ctx.sender.send({
    url: a.url,
    body: a.body,
    secret,
    event: a.eventType,
    eventId: a.eventId,
    isTest: a.isTest,
  });
};

/** Records what the attempt's request came to, and what follows from it (retry, disable, notice). */
export const settleAttempt = async (
  ctx: NotifierContext,
  a: ClaimedAttempt,
  result: WebhookResult,
): Promise<void> => {
  const retryInMs = result.ok ? undefined : nextRetryDelay(ctx.schedule, a.attempt, result.retryAfterMs);
  const outcome = await recordAttemptOutcome(ctx, a, result, retryInMs);
  const { metrics } = ctx;
  const labels = { outcome: result.ok ? 'succeeded' : 'failed' };
  metrics.attempts.inc({ ...labels, status: String(result.status ?? 'none'), trigger: a.trigger });
  metrics.attemptDuration.observe(labels, result.timeMs / 1000);
  if (!outcome.recorded) {
    metrics.lostLeases.inc();
    ctx.logger.info('attempt result dropped: the attempt was taken over or its endpoint deleted', {
      attemptId: a.id,
    });
    return;
  }
  if (result.ok && a.trigger === 'event') {
    metrics.eventToDelivery.observe(Math.max(0, (Date.now() - a.occurredAt.getTime()) / 1000));
  }
  if (outcome.retryInMs !== undefined) ctx.retryDueIn(outcome.retryInMs);
  if (outcome.disabled) {
    metrics.endpointsDisabled.inc();
    ctx.logger.warn('webhook endpoint disabled after consecutive failures', { endpointId: a.endpointId });
  }
  if (outcome.emailsQueued > 0) ctx.emailsQueued();
};
