import { z } from 'zod';
import { messageEnvelope, successEnvelope } from '../shared/envelope.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';
import { WebhookEventName } from './payloads.js';

export const WEBHOOK_DESCRIPTION_MAX = 200;

/**
 * Endpoint URL. Absolute http(s) URL here; HTTPS-only and "no private or internal addresses" are
 * enforced by the notifier (both depend on deployment config, e.g. the local devnet).
 */
export const WebhookUrl = z.url({ protocol: /^https?$/ }).max(2048);

const EventList = z
  .array(WebhookEventName)
  .min(1)
  .refine((list) => new Set(list).size === list.length, { message: 'events must be unique' });

export const WebhookEndpoint = z.object({
  id: Uuid,
  url: z.string(),
  events: z.array(WebhookEventName),
  /** null when none was given */
  description: z.string().nullable(),
  is_active: z.boolean(),
  /** consecutive failures; the endpoint is disabled at 10 */
  failure_count: z.number().int().nonnegative(),
  created_at: IsoTimestamp,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookIdParams = z.object({ id: Uuid });

export const WebhookListResponse = successEnvelope(z.array(WebhookEndpoint));
export type WebhookListResponse = z.infer<typeof WebhookListResponse>;

export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  events: EventList,
  description: z.string().max(WEBHOOK_DESCRIPTION_MAX).optional(),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/** Creation result: the endpoint plus its signing secret (`whsec_<value>`), shown here and on regenerate. */
export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: z.string() });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;
/** 201 */
export const CreateWebhookResponse = successEnvelope(CreatedWebhookEndpoint);
export type CreateWebhookResponse = z.infer<typeof CreateWebhookResponse>;

export const WebhookResponse = successEnvelope(WebhookEndpoint);
export type WebhookResponse = z.infer<typeof WebhookResponse>;

/** PUT: all optional; `is_active: true` re-enables and resets failure_count. */
export const UpdateWebhookBody = z.object({
  url: WebhookUrl.optional(),
  events: EventList.optional(),
  description: z.string().max(WEBHOOK_DESCRIPTION_MAX).nullable().optional(),
  is_active: z.boolean().optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const DeleteWebhookResponse = messageEnvelope.extend({ message: z.string() });
export type DeleteWebhookResponse = z.infer<typeof DeleteWebhookResponse>;

export const RegeneratedWebhookSecret = z.object({ id: Uuid, secret: z.string() });
export type RegeneratedWebhookSecret = z.infer<typeof RegeneratedWebhookSecret>;
export const RegenerateWebhookSecretResponse = successEnvelope(RegeneratedWebhookSecret);
export type RegenerateWebhookSecretResponse = z.infer<typeof RegenerateWebhookSecretResponse>;

/** Result of one synchronous test delivery (a `payment.completed` sample, `X-Service-Test: true`). */
export const WebhookTestResult = z.object({
  delivery_id: Uuid,
  status_code: z.number().int().nullable(),
  success: z.boolean(),
  response_time_ms: z.number().int().nonnegative(),
  error: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;
export const WebhookTestResponse = successEnvelope(WebhookTestResult);
export type WebhookTestResponse = z.infer<typeof WebhookTestResponse>;

export const WebhookEventInfo = z.object({ name: WebhookEventName, description: z.string() });
export type WebhookEventInfo = z.infer<typeof WebhookEventInfo>;
export const WebhookEventsResponse = successEnvelope(z.array(WebhookEventInfo));
export type WebhookEventsResponse = z.infer<typeof WebhookEventsResponse>;
