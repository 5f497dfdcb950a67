import { z } from 'zod';
import { Uuid } from '../shared/scalars.js';

const ByUser = z.object({ callerKind: z.literal('user'), userId: Uuid, apiKeyId: z.null() });
const ByApiKey = z.object({ callerKind: z.literal('api_key'), userId: z.null(), apiKeyId: Uuid });

/**
 * Who changed a webhook endpoint, from the request's internal token: a dashboard user (`userId`) or
 * a server with an API key (`apiKeyId`), exactly one of them.
 */
export const WebhookEndpointActor = z.discriminatedUnion('callerKind', [ByUser, ByApiKey]);
export type WebhookEndpointActor = z.infer<typeof WebhookEndpointActor>;

const endpointChange = z.object({
  merchantId: Uuid,
  endpointId: Uuid,
  url: z.string(),
});

/**
 * webhook_endpoint.created / .deleted / .secret_regenerated: a merchant's webhook endpoint changed,
 * announced by the notifier for the merchant's audit log. Internal domain events: never offered as
 * webhooks (not in WEBHOOK_EVENT_NAMES), and never carrying the signing secret.
 */
export const WebhookEndpointChangedData = z.discriminatedUnion('callerKind', [
  endpointChange.extend(ByUser.shape),
  endpointChange.extend(ByApiKey.shape),
]);
export type WebhookEndpointChangedData = z.infer<typeof WebhookEndpointChangedData>;
