import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_REPLAY_MAX_DAYS,
  type WebhookDeliveryLog,
  type WebhookRedelivery,
  type WebhookReplayBody,
  type WebhookReplayResult,
  type WebhookTestResult,
} from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, notFound } from '@stablepay/platform';
import { createDelivery, insertEvent, insertTestDelivery, queueReplay } from './deliveries-repo.js';
import { eventOfAttempt, listAttemptLogs, type AttemptLogRecord } from './logs-repo.js';
import type { NotifierContext } from '../context.js';
import { getEndpoint, lockMerchantEndpoint } from '../webhooks/endpoints.js';
import { samplePaymentCompleted, webhookBody } from '../webhooks/payloads.js';
import { openSecret } from '../webhooks/secrets.js';

/** A log row: the contract's fields, plus `trigger`, `scheduled_at` and `completed_at`. */
export type DeliveryLogView = WebhookDeliveryLog & {
  trigger: AttemptLogRecord['trigger'];
  scheduled_at: string;
  completed_at: string | null;
};

export const logView = (r: AttemptLogRecord): DeliveryLogView => ({
  id: r.id,
  event_id: r.eventId,
  event: r.eventType,
  status: r.status,
  attempt: r.attempt,
  response_status: r.responseStatus,
  response_time_ms: r.responseTimeMs,
  error: r.error,
  response_body_excerpt: r.excerpt,
  payload: JSON.parse(r.body) as Record<string, unknown>,
  is_test: r.isTest,
  created_at: r.createdAt.toISOString(),
  trigger: r.trigger,
  scheduled_at: r.scheduledAt.toISOString(),
  completed_at: r.finishedAt?.toISOString() ?? null,
});

export const deliveryLogs = async (
  ctx: NotifierContext,
  merchantId: string,
  id: string,
  limit: number,
): Promise<DeliveryLogView[]> => {
  await getEndpoint(ctx, merchantId, id);
  return (await listAttemptLogs(ctx.db, id, limit)).map(logView);
};

const isForeignKeyViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23503';

/**
 * The test operation: a `payment.completed` sample with `X-Service-Test: true`, sent now, within
 * the timeout, and logged like any delivery. It works on a disabled endpoint (that is when one
 * wants to try it) and never changes the endpoint's failure count.
 */
export const sendTestEvent = async (
  ctx: NotifierContext,
  merchantId: string,
  id: string,
): Promise<WebhookTestResult> => {
  const endpoint = await getEndpoint(ctx, merchantId, id);
  const eventId = randomUUID();
  const occurredAt = new Date().toISOString();
  const body = webhookBody('payment.completed', occurredAt, samplePaymentCompleted());
  await insertEvent(ctx.db, {
    id: eventId,
    merchantId,
    type: 'payment.completed',
    body,
    occurredAt,
    isTest: true,
  });
  const startedAt = new Date();
  const result = await ctx.sender.send({
    url: endpoint.url,
    body,
    secret: openSecret(endpoint.secretSealed, ctx.keks, endpoint.id),
    event: 'payment.completed',
    eventId,
    isTest: true,
  });
  const attemptId = randomUUID();
  try {
    await ctx.db.transaction((trx) =>
      insertTestDelivery(trx, {
        attemptId,
        endpointId: endpoint.id,
        eventId,
        merchantId,
        succeeded: result.ok,
        startedAt,
        responseStatus: result.status,
        responseTimeMs: result.timeMs,
        error: result.error,
        excerpt: result.excerpt,
      }),
    );
  } catch (err) {
    if (isForeignKeyViolation(err)) throw notFound('Webhook endpoint'); // deleted meanwhile
    throw err;
  }
  return {
    delivery_id: attemptId,
    status_code: result.status,
    success: result.ok,
    response_time_ms: result.timeMs,
    error: result.error,
  };
};

const disabled = () =>
  conflict('Webhook endpoint is disabled; re-enable it with is_active: true first', [
    fieldDetail('', 'The endpoint is disabled', 'endpoint_disabled'),
  ]);

/** Sends a logged event to the endpoint again: a new delivery with its own attempts, same event id. */
export const redeliver = async (
  ctx: NotifierContext,
  merchantId: string,
  id: string,
  attemptId: string,
): Promise<WebhookRedelivery> => {
  const out = await ctx.db.transaction(async (trx) => {
    const endpoint = await lockMerchantEndpoint(trx, merchantId, id);
    const eventId = await eventOfAttempt(trx, id, attemptId);
    if (!eventId) throw notFound('Webhook delivery');
    if (!endpoint.isActive) throw disabled();
    const created = await createDelivery(trx, { endpointId: id, eventId, merchantId, trigger: 'redeliver' });
    return { delivery_id: created.attemptId, event_id: eventId, status: 'pending' as const };
  });
  ctx.deliveriesQueued();
  return out;
};

/**
 * Replay: queues every event since `since` (at most WEBHOOK_REPLAY_MAX_DAYS back) of the endpoint's
 * subscriptions, or of the given subset of them, that the endpoint has not received: failed ones
 * and ones it missed while disabled. Events already delivered or already queued are left out, so
 * repeating a replay never sends an event twice. At most WEBHOOK_REPLAY_MAX_EVENTS per request,
 * oldest first; a second request continues where the first stopped.
 */
export const replay = async (
  ctx: NotifierContext,
  merchantId: string,
  id: string,
  body: WebhookReplayBody,
): Promise<WebhookReplayResult> => {
  const since = new Date(body.since);
  const now = Date.now();
  if (since.getTime() > now) {
    throw new AppError('validation', 'Body validation failed', [
      fieldDetail('since', 'since must not be in the future', 'too_big'),
    ]);
  }
  if (since.getTime() < now - WEBHOOK_REPLAY_MAX_DAYS * 86_400_000) {
    throw new AppError('validation', 'Body validation failed', [
      fieldDetail('since', `since must be at most ${WEBHOOK_REPLAY_MAX_DAYS} days ago`, 'too_small'),
    ]);
  }
  const queued = await ctx.db.transaction(async (trx) => {
    const endpoint = await lockMerchantEndpoint(trx, merchantId, id);
    if (!endpoint.isActive) throw disabled();
    const types = body.events ? endpoint.events.filter((e) => body.events!.includes(e)) : endpoint.events;
    if (types.length === 0) return 0;
    return queueReplay(trx, {
      endpointId: id,
      merchantId,
      since: since.toISOString(),
      types,
      max: ctx.limits.replayMaxEvents,
    });
  });
  if (queued > 0) ctx.deliveriesQueued();
  return { queued, since: since.toISOString() };
};
