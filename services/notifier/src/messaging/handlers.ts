import type { Knex } from 'knex';
import { EventTypes, type IntegrationEvent, type WebhookEventName } from '@stablepay/contracts';
import type { EventHandler, EventHandlers } from '@stablepay/platform';
import { createEventDeliveries, insertEvent } from '../db/deliveries-repo.js';
import { subscribedEndpointIds } from '../db/endpoints-repo.js';
import { upsertMerchant } from '../db/mail-repo.js';
import type { NotifierContext } from '../domain/context.js';
import { queueInvoiceEmail, queuePaymentEmails, queueRefundEmail } from '../domain/emails.js';
import { webhookBody } from '../domain/payloads.js';

/**
 * A deliverable event, in the inbox transaction: stored once with the exact body to send, one
 * delivery (with its first attempt) per active endpoint of the merchant subscribed to it, and the
 * e-mails it calls for. Sending happens after commit, in the delivery and mail workers.
 */
const onWebhookEvent =
  (ctx: NotifierContext) =>
  async (event: IntegrationEvent<WebhookEventName>, trx: Knex.Transaction): Promise<void> => {
    // The data's merchant id is a UUID by the catalogue's schema; the envelope's is any string.
    const ref = { id: event.id, merchantId: event.data.merchant_id, occurredAt: event.occurredAt };
    await insertEvent(trx, {
      ...ref,
      type: event.type,
      body: webhookBody(event.type, event.occurredAt, event.data),
      isTest: false,
    });
    const endpoints = await subscribedEndpointIds(trx, ref.merchantId, event.type);
    await createEventDeliveries(trx, ref, endpoints, ctx.schedule.delaysMs[0] ?? 0);
    if (event.type === EventTypes.PaymentCompleted) await queuePaymentEmails(ctx, trx, ref, event.data);
    if (event.type === EventTypes.RefundCompleted) await queueRefundEmail(ctx, trx, ref, event.data);
  };

/** The merchant's name and address, for the notices sent to the merchant. */
const onMerchantCreated: EventHandler<typeof EventTypes.MerchantCreated> = async ({ data }, trx) => {
  await upsertMerchant(trx, {
    merchantId: data.merchantId,
    publicId: data.publicId,
    name: data.name,
    email: data.email,
  });
};

/** Every event the notifier consumes, with its handler: one list, registered at start. */
export const notifierConsumers = (ctx: NotifierContext): EventHandlers => {
  const deliver = onWebhookEvent(ctx);
  return {
    [EventTypes.MerchantCreated]: onMerchantCreated,
    [EventTypes.PaymentCompleted]: deliver,
    [EventTypes.PaymentFailed]: deliver,
    [EventTypes.RefundCreated]: deliver,
    [EventTypes.RefundCompleted]: deliver,
    [EventTypes.RefundFailed]: deliver,
    [EventTypes.InvoiceIssued]: async (event, trx) =>
      void (await queueInvoiceEmail(ctx, trx, event, event.data)),
  };
};
