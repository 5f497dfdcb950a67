import type { Knex } from 'knex';
import { EventTypes, type IntegrationEvent, type WebhookEventName } from '@stablepay/contracts';
import type { EventHandler, EventHandlers } from '@stablepay/platform';
import { createEventDeliveries, insertEvent, type CreatedDelivery } from '../db/deliveries-repo.js';
import { subscribedEndpoints } from '../db/endpoints-repo.js';
import { confirmMerchantEmail, upsertMerchant } from '../db/mail-repo.js';
import type { NotifierContext } from '../domain/context.js';
import {
  queueAccountEmail,
  queueInvoiceEmail,
  queuePaymentEmails,
  queueRefundEmail,
  queueWithdrawalAddressEmail,
} from '../domain/emails.js';
import { webhookBody } from '../domain/payloads.js';

/**
 * A deliverable event, in the inbox transaction: stored once with the exact body to send, one
 * delivery (with its first attempt) per active endpoint of the merchant subscribed to it, and the
 * e-mails it calls for. Sending happens after commit: the attempts this replica has room for are
 * created leased to it and handed to its delivery worker; the rest wait for a claim.
 */
const onWebhookEvent =
  (ctx: NotifierContext) =>
  async (event: IntegrationEvent<WebhookEventName>, trx: Knex.Transaction): Promise<void> => {
    // The data's merchant id is a UUID by the catalogue's schema; the envelope's is any string.
    const ref = { id: event.id, merchantId: event.data.merchant_id, occurredAt: event.occurredAt };
    const body = webhookBody(event.type, event.occurredAt, event.data);
    await insertEvent(trx, { ...ref, type: event.type, body, isTest: false });
    const endpoints = await subscribedEndpoints(trx, ref.merchantId, event.type);
    const firstDelayMs = ctx.schedule.delaysMs[0] ?? 0;
    const direct = ctx.directDeliveries;
    const reserved = firstDelayMs === 0 ? direct.reserve(endpoints.map((e) => e.id)) : [];
    let created: CreatedDelivery[] = [];
    trx.executionPromise.then(
      () => {
        const occurredAt = new Date(ref.occurredAt);
        const byId = new Map(endpoints.map((e) => [e.id, e]));
        const attemptOf = (c: CreatedDelivery) => ({
          id: c.attemptId,
          deliveryId: c.deliveryId,
          endpointId: c.endpointId,
          merchantId: ref.merchantId,
          eventId: ref.id,
          eventType: event.type,
          attempt: 1,
          trigger: 'event' as const,
          body,
          isTest: false,
          occurredAt,
        });
        direct.handOver(
          reserved,
          created
            .filter((c) => c.leaseToken !== null)
            .map((c) => {
              const endpoint = byId.get(c.endpointId)!;
              return {
                ...attemptOf(c),
                url: endpoint.url,
                secretSealed: endpoint.secretSealed,
                leaseToken: c.leaseToken!,
              };
            }),
          // Due now, unless the schedule's first wait says otherwise (then a claim finds them).
          firstDelayMs === 0 ? created.filter((c) => c.leaseToken === null).map(attemptOf) : [],
        );
        if (firstDelayMs > 0 && created.length > 0) ctx.retryDueIn(firstDelayMs);
      },
      () => direct.handOver(reserved, [], []),
    );
    created = await createEventDeliveries(
      trx,
      ref,
      endpoints.map((e) => e.id),
      firstDelayMs,
      { endpointIds: reserved, leaseMs: direct.leaseMs },
    );
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
    // Merchants announced before confirmation existed count as confirmed.
    emailConfirmed: data.emailConfirmed ?? true,
  });
};

/**
 * From now on the merchant is sent its notices. Before its merchant.created the notifier has nowhere
 * to record it: the message is retried until that arrives (the gateway publishes it first).
 */
const onMerchantEmailConfirmed: EventHandler<typeof EventTypes.MerchantEmailConfirmed> = async (
  { data },
  trx,
) => {
  if (!(await confirmMerchantEmail(trx, data.merchantId)))
    throw new Error(`merchant ${data.merchantId} not known yet; its confirmation waits for merchant.created`);
};

/** Every event the notifier consumes, with its handler: one list, registered at start. */
export const notifierConsumers = (ctx: NotifierContext): EventHandlers => {
  const deliver = onWebhookEvent(ctx);
  return {
    [EventTypes.MerchantCreated]: onMerchantCreated,
    [EventTypes.MerchantEmailConfirmed]: onMerchantEmailConfirmed,
    [EventTypes.AccountEmailRequested]: async (event, trx) =>
      void (await queueAccountEmail(ctx, trx, event, event.data)),
    [EventTypes.PaymentCompleted]: deliver,
    [EventTypes.PaymentFailed]: deliver,
    [EventTypes.RefundCreated]: deliver,
    [EventTypes.RefundCompleted]: deliver,
    [EventTypes.RefundFailed]: deliver,
    [EventTypes.InvoiceIssued]: async (event, trx) =>
      void (await queueInvoiceEmail(ctx, trx, event, event.data)),
    [EventTypes.WithdrawalAddressAdded]: async (event, trx) =>
      void (await queueWithdrawalAddressEmail(ctx, trx, event, { kind: 'added', data: event.data })),
    [EventTypes.WithdrawalAddressRemoved]: async (event, trx) =>
      void (await queueWithdrawalAddressEmail(ctx, trx, event, { kind: 'removed', data: event.data })),
  };
};
