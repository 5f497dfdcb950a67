import type { Knex } from 'knex';
import {
  EventTypes,
  type AuditAction,
  type IntegrationEvent,
  type WebhookEndpointChangedData,
} from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import { findApiKeyLabel } from '../api-keys/api-keys-repo.js';
import { appendAudit } from './audit-log-repo.js';

type EndpointChangeType =
  | typeof EventTypes.WebhookEndpointCreated
  | typeof EventTypes.WebhookEndpointDeleted
  | typeof EventTypes.WebhookEndpointSecretRegenerated;

/**
 * Changes to the merchant's webhook endpoints, announced by the notifier that serves them, recorded
 * as done by the dashboard user or the API key that asked. The key is also named in the details (its
 * name and last four characters), since the merchant knows keys by those. Each event is handled
 * once (the platform's inbox), so each change has one entry.
 */
const recordEndpointChange =
  (action: AuditAction) =>
  async (event: IntegrationEvent<EndpointChangeType>, trx: Knex.Transaction): Promise<void> => {
    const data: WebhookEndpointChangedData = event.data;
    const key = data.apiKeyId ? await findApiKeyLabel(trx, data.merchantId, data.apiKeyId) : undefined;
    await appendAudit(trx, {
      action,
      merchantId: data.merchantId,
      userId: data.userId ?? undefined,
      apiKeyId: data.apiKeyId ?? undefined,
      requestId: event.correlationId,
      details: {
        endpointId: data.endpointId,
        url: data.url,
        ...(key && { apiKeyName: key.name, apiKeyLast4: key.last4 }),
      },
    });
  };

export const webhookEndpointAuditConsumers: EventHandlers = {
  [EventTypes.WebhookEndpointCreated]: recordEndpointChange('webhook_endpoint.created'),
  [EventTypes.WebhookEndpointDeleted]: recordEndpointChange('webhook_endpoint.deleted'),
  [EventTypes.WebhookEndpointSecretRegenerated]: recordEndpointChange('webhook_endpoint.secret_regenerated'),
};
