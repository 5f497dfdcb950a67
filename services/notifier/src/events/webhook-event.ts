import type { Knex } from 'knex';
import { EventTypes, type WebhookEventName } from '@stablepay/contracts';
import type { NotifierContext } from '../context.js';
import { createEventDeliveries, type CreatedDelivery } from '../delivery/deliveries-repo.js';
import {
  paymentCustomerOf,
  queueInvoiceEmail,
  queuePaymentEmails,
  queueRefundEmail,
} from '../mail/payment-emails.js';
import { merchantOf, webhookBody, type WebhookEvent } from '../webhooks/payloads.js';
import { takeInEvent, type EventIntake, type SubscribedEndpoint as Endpoint } from './event-intake.js';

interface Fanout {
  ref: { id: string; merchantId: string; occurredAt: string };
  type: WebhookEventName;
  body: string;
  endpoints: Endpoint[];
  reserved: string[];
  firstDelayMs: number;
}

/**
 * Once the inbox transaction has committed: the attempts created leased to this replica start now,
 * those created without a lease are claimed by id as room frees up (due now, unless the schedule's
 * first wait says otherwise: then a claim finds them).
 */
const handOverCreated = (ctx: NotifierContext, f: Fanout, created: CreatedDelivery[]): void => {
  const occurredAt = new Date(f.ref.occurredAt);
  const byId = new Map(f.endpoints.map((e) => [e.id, e]));
  const attemptOf = (c: CreatedDelivery) => ({
    id: c.attemptId,
    deliveryId: c.deliveryId,
    endpointId: c.endpointId,
    merchantId: f.ref.merchantId,
    eventId: f.ref.id,
    eventType: f.type,
    attempt: 1,
    trigger: 'event' as const,
    body: f.body,
    isTest: false,
    occurredAt,
  });
  ctx.directDeliveries.handOver(
    f.reserved,
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
    f.firstDelayMs === 0 ? created.filter((c) => c.leaseToken === null).map(attemptOf) : [],
  );
  if (f.firstDelayMs > 0 && created.length > 0) ctx.retryDueIn(f.firstDelayMs);
};

/**
 * A deliverable event, in the inbox transaction: stored once with the exact body to send, one
 * delivery (with its first attempt) per active endpoint of the merchant subscribed to it, and the
 * e-mails it calls for. Sending happens after commit: the attempts this replica has room for are
 * created leased to it and handed to its delivery worker; the rest wait for a claim.
 */
export const onWebhookEvent =
  (ctx: NotifierContext) =>
  async (event: WebhookEvent, trx: Knex.Transaction): Promise<void> => {
    // The data's merchant id is a UUID by the catalogue's schema; the envelope's is any string.
    const ref = { id: event.id, merchantId: merchantOf(event), occurredAt: event.occurredAt };
    const body = webhookBody(event.type, event.occurredAt, event.data);
    const intake = await takeInEvent(trx, {
      ...ref,
      type: event.type,
      body,
      customer: event.type === EventTypes.PaymentCompleted ? paymentCustomerOf(event.data) : undefined,
      withMerchant: WITH_EMAILS.has(event.type),
    });
    const { endpoints } = intake;
    const firstDelayMs = ctx.schedule.delaysMs[0] ?? 0;
    const direct = ctx.directDeliveries;
    const reserved = firstDelayMs === 0 ? direct.reserve(endpoints.map((e) => e.id)) : [];
    const fanout: Fanout = { ref, type: event.type, body, endpoints, reserved, firstDelayMs };
    let created: CreatedDelivery[] = [];
    trx.executionPromise.then(
      () => handOverCreated(ctx, fanout, created),
      () => direct.handOver(reserved, [], []),
    );
    created = await createEventDeliveries(
      trx,
      ref,
      endpoints.map((e) => e.id),
      firstDelayMs,
      { endpointIds: reserved, leaseMs: direct.leaseMs },
    );
    await queueEventEmails(ctx, trx, event, ref, intake);
  };

/** The events that call for an e-mail besides their webhooks. */
const WITH_EMAILS = new Set<string>([
  EventTypes.PaymentCompleted,
  EventTypes.RefundCompleted,
  EventTypes.InvoiceIssued,
]);

const queueEventEmails = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: WebhookEvent,
  ref: Fanout['ref'],
  { merchant }: EventIntake,
): Promise<void> => {
  if (event.type === EventTypes.PaymentCompleted)
    await queuePaymentEmails(ctx, trx, ref, event.data, merchant);
  if (event.type === EventTypes.RefundCompleted) await queueRefundEmail(ctx, trx, ref, event.data, merchant);
  if (event.type === EventTypes.InvoiceIssued) await queueInvoiceEmail(ctx, trx, ref, event.data, merchant);
};
