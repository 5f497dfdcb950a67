import { z } from 'zod';
import {
  EventTypes,
  MerchantCreatedData,
  PaymentWebhookData,
  RefundWebhookData,
  Uuid,
  type WebhookEventName,
} from '@stablepay/contracts';
import { PermanentError, type EventEnvelope, type TransactionalHandler } from '@stablepay/platform';
import { createEventDeliveries, insertEvent } from '../db/deliveries-repo.js';
import { subscribedEndpointIds } from '../db/endpoints-repo.js';
import { upsertMerchant } from '../db/mail-repo.js';
import type { NotifierContext } from '../domain/context.js';
import { queuePaymentEmails, queueRefundEmail } from '../domain/emails.js';
import { paymentWebhookData, refundWebhookData, webhookBody } from '../domain/payloads.js';

/** Parses at the boundary; a payload the contracts refuse can never succeed and is dead-lettered. */
const parse = <S extends z.ZodType>(schema: S, data: unknown, type: string): z.output<S> => {
  const r = schema.safeParse(data);
  if (!r.success) throw new PermanentError(`invalid ${type} data: ${z.prettifyError(r.error)}`);
  return r.data;
};

/**
 * A deliverable event, in the inbox transaction: stored once with the exact body to send, one
 * delivery (with its first attempt) per active endpoint of the merchant subscribed to it, and the
 * e-mails it calls for. Sending happens after commit, in the delivery and mail workers.
 */
const onWebhookEvent =
  (ctx: NotifierContext, type: WebhookEventName): TransactionalHandler =>
  async (event: EventEnvelope, trx) => {
    const isPayment = type.startsWith('payment.');
    parse(Uuid, event.merchantId, `${type} merchantId`);
    parse(isPayment ? PaymentWebhookData : RefundWebhookData, event.data, type);
    const body = webhookBody(type, event.occurredAt, event.data);
    await insertEvent(trx, {
      id: event.id,
      merchantId: event.merchantId,
      type,
      body,
      occurredAt: event.occurredAt,
      isTest: false,
    });
    const endpoints = await subscribedEndpointIds(trx, event.merchantId, type);
    await createEventDeliveries(trx, event, endpoints, ctx.schedule.delaysMs[0] ?? 0);
    if (type === 'payment.completed') {
      await queuePaymentEmails(ctx, trx, event, paymentWebhookData(event.data));
    } else if (type === 'refund.completed') {
      await queueRefundEmail(ctx, trx, event, refundWebhookData(type, event.data));
    }
  };

/** The merchant's name and address, for the notices sent to the merchant. */
const onMerchantCreated: TransactionalHandler = async (event, trx) => {
  const m = parse(MerchantCreatedData, event.data, event.type);
  await upsertMerchant(trx, { merchantId: m.merchantId, publicId: m.publicId, name: m.name, email: m.email });
};

/** Every event the notifier consumes, with its handler: one list, registered at start. */
export const notifierHandlers = (ctx: NotifierContext): Record<string, TransactionalHandler> => ({
  [EventTypes.MerchantCreated]: onMerchantCreated,
  [EventTypes.PaymentCompleted]: onWebhookEvent(ctx, 'payment.completed'),
  [EventTypes.PaymentFailed]: onWebhookEvent(ctx, 'payment.failed'),
  [EventTypes.RefundCreated]: onWebhookEvent(ctx, 'refund.created'),
  [EventTypes.RefundCompleted]: onWebhookEvent(ctx, 'refund.completed'),
  [EventTypes.RefundFailed]: onWebhookEvent(ctx, 'refund.failed'),
});
