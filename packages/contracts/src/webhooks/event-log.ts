import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { listPage, pageParams } from '../shared/paging.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';
import { WebhookDeliveryStatus } from './deliveries.js';
import { WebhookEventName } from './payloads.js';

/**
 * GET /events/api/list (key) and GET /events (jwt), an extension: the merchant's recent events,
 * what was (or would have been) sent to its webhook endpoints, newest first. Test events are not
 * events of the merchant's business and are left out (they are in each endpoint's delivery log).
 */
export const MERCHANT_EVENT_LIST_DEFAULT_LIMIT = 50;
export const MERCHANT_EVENT_LIST_MAX_LIMIT = 200;

export const MerchantEventListQuery = z.object({
  type: WebhookEventName.optional(),
  ...pageParams({ max: MERCHANT_EVENT_LIST_MAX_LIMIT, default: MERCHANT_EVENT_LIST_DEFAULT_LIMIT }),
});
export type MerchantEventListQuery = z.infer<typeof MerchantEventListQuery>;

/** Where an event went: one endpoint subscribed to it, and how its delivery stands. */
export const MerchantEventDelivery = z.object({
  delivery_id: Uuid,
  endpoint_id: Uuid,
  endpoint_url: z.string(),
  /** `event` when the event went out as it happened; `redeliver`/`replay` when sent again */
  trigger: z.enum(['event', 'redeliver', 'replay']),
  status: WebhookDeliveryStatus,
  attempts: z.number().int().nonnegative(),
});

export const MerchantEvent = z.object({
  /** stable id (the X-Service-Event-Id of its deliveries) */
  id: Uuid,
  type: WebhookEventName,
  /** when it happened (the webhook body's `timestamp`) */
  created_at: IsoTimestamp,
  /** the webhook body's `data` */
  data: z.record(z.string(), z.unknown()),
  /** empty when no endpoint was subscribed to it */
  deliveries: z.array(MerchantEventDelivery),
});
export type MerchantEvent = z.infer<typeof MerchantEvent>;

export const MerchantEventListPage = listPage('events', MerchantEvent);
export const MerchantEventListResponse = successEnvelope(MerchantEventListPage);
