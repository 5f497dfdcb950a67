import type { Knex } from 'knex';
import { EventTypes, type WebhookEndpointActor } from '@stablepay/contracts';
import type { NotifierContext } from '../context.js';
import type { EndpointRecord } from './endpoints-repo.js';

/** The changes to an endpoint that the merchant's audit log records (the gateway consumes them). */
export type EndpointChange =
  | typeof EventTypes.WebhookEndpointCreated
  | typeof EventTypes.WebhookEndpointDeleted
  | typeof EventTypes.WebhookEndpointSecretRegenerated;

/**
 * Writes the change's event to the outbox in the transaction of the change itself, so the audit
 * entry exists exactly when the change does, whatever dies after the commit.
 */
export const recordEndpointChange = (
  ctx: Pick<NotifierContext, 'writeEvent'>,
  trx: Knex.Transaction,
  type: EndpointChange,
  endpoint: Pick<EndpointRecord, 'id' | 'merchantId' | 'url'>,
  actor: WebhookEndpointActor,
): Promise<void> =>
  ctx.writeEvent(trx, type, endpoint.merchantId, {
    merchantId: endpoint.merchantId,
    endpointId: endpoint.id,
    url: endpoint.url,
    ...actor,
  });
