import { z } from 'zod';
import { Uuid } from '../common.js';

const endpointChange = z.object({
  merchantId: Uuid,
  endpointId: Uuid,
  url: z.string(),
});

/**
 * webhook_endpoint.created / .deleted / .secret_regenerated: a merchant's webhook endpoint changed,
 * announced by the notifier for the merchant's audit log. Who acted comes from the request's internal
 * token: a dashboard user (`userId`) or a server with an API key (`apiKeyId`), exactly one of them.
 * Internal domain events: never offered as webhooks (not in WEBHOOK_EVENT_NAMES), and never carrying
 * the signing secret.
 */
export const WebhookEndpointChangedData = z.discriminatedUnion('callerKind', [
  endpointChange.extend({ callerKind: z.literal('user'), userId: Uuid, apiKeyId: z.null() }),
  endpointChange.extend({ callerKind: z.literal('api_key'), userId: z.null(), apiKeyId: Uuid }),
]);
export type WebhookEndpointChangedData = z.infer<typeof WebhookEndpointChangedData>;
