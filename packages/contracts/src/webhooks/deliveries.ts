import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { pageLimit } from '../shared/paging.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';
import { WebhookEventName } from './payloads.js';

export const WEBHOOK_LOG_DEFAULT_LIMIT = 20;
export const WEBHOOK_LOG_MAX_LIMIT = 100;

export const WebhookLogsQuery = z.object({
  limit: pageLimit({ max: WEBHOOK_LOG_MAX_LIMIT, default: WEBHOOK_LOG_DEFAULT_LIMIT }),
});

export const WebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** One delivery attempt (newest first in the logs). */
export const WebhookDeliveryLog = z.object({
  id: Uuid,
  /** stable id of the event (also sent as X-Service-Event-Id) */
  event_id: Uuid,
  event: WebhookEventName,
  status: WebhookDeliveryStatus,
  /** 1-based attempt number for this event and endpoint */
  attempt: z.number().int().min(1),
  response_status: z.number().int().nullable(),
  response_time_ms: z.number().int().nonnegative().nullable(),
  error: z.string().nullable(),
  /** first 1024 characters of the receiver's answer */
  response_body_excerpt: z.string().nullable(),
  /** the JSON body that was sent */
  payload: z.record(z.string(), z.unknown()),
  is_test: z.boolean(),
  created_at: IsoTimestamp,
});
export type WebhookDeliveryLog = z.infer<typeof WebhookDeliveryLog>;

export const WebhookLogs = z.object({ logs: z.array(WebhookDeliveryLog) });
export const WebhookLogsResponse = successEnvelope(WebhookLogs);
export type WebhookLogsResponse = z.infer<typeof WebhookLogsResponse>;

/** Extension: POST /merchant-webhooks/api/:id/deliveries/:deliveryId/redeliver */
export const WebhookDeliveryParams = z.object({ id: Uuid, deliveryId: Uuid });

export const WebhookRedelivery = z.object({
  /** the new delivery attempt, queued for sending */
  delivery_id: Uuid,
  event_id: Uuid,
  status: z.literal('pending'),
});
export type WebhookRedelivery = z.infer<typeof WebhookRedelivery>;
/** 202 */
export const WebhookRedeliverResponse = successEnvelope(WebhookRedelivery);
export type WebhookRedeliverResponse = z.infer<typeof WebhookRedeliverResponse>;

export const WEBHOOK_REPLAY_MAX_DAYS = 30;

/** Extension: POST /merchant-webhooks/api/:id/replay: re-send every subscribed event since `since`. */
export const WebhookReplayBody = z.object({
  since: IsoTimestamp,
  /** restrict to these events (default: the endpoint's subscriptions) */
  events: z.array(WebhookEventName).min(1).optional(),
});
export type WebhookReplayBody = z.infer<typeof WebhookReplayBody>;

export const WebhookReplayResult = z.object({
  /** number of deliveries queued */
  queued: z.number().int().nonnegative(),
  since: IsoTimestamp,
});
export type WebhookReplayResult = z.infer<typeof WebhookReplayResult>;
/** 202 */
export const WebhookReplayResponse = successEnvelope(WebhookReplayResult);
export type WebhookReplayResponse = z.infer<typeof WebhookReplayResponse>;
