import { randomBytes, randomUUID } from 'node:crypto';
import {
  PaymentWebhookData,
  RefundWebhookData,
  type CheckoutSessionCompletedData,
  type CheckoutSessionExpiredData,
  type IntegrationEvent,
  type InvoiceIssuedData,
  type WebhookEnvelope,
  type WebhookEventName,
  type WithdrawalCompletedData,
  type WithdrawalFailedData,
} from '@stablepay/contracts';
import {
  checkoutSessionCompletedWebhookData,
  checkoutSessionExpiredWebhookData,
  invoiceIssuedWebhookData,
  withdrawalCompletedWebhookData,
  withdrawalFailedWebhookData,
} from './extension-payloads.js';

/** The spec's fields of each payload, in the spec's order. */
const PAYMENT_FIELDS = PaymentWebhookData.keyof().options;
const REFUND_FIELDS = RefundWebhookData.keyof().options;

/** Copies only the named fields: the integration event's data carries internal ones too. */
const onlyFields = <T extends object>(data: T, fields: readonly (keyof T)[]): T => {
  const out: Partial<T> = {};
  for (const field of fields) if (data[field] !== undefined) out[field] = data[field];
  return out as T;
};

/**
 * The spec's payment data from the integration event's (merchant_id, completed_at, failure_reason
 * are internal and dropped); `merchant_transfer_tx_hash` is only for cross-chain payments.
 */
export const paymentWebhookData = (data: PaymentWebhookData): PaymentWebhookData => {
  const out = onlyFields(data, PAYMENT_FIELDS);
  if (!out.is_cross_chain) delete out.merchant_transfer_tx_hash;
  return out;
};

/** The spec's refund data; `failure_reason` belongs to `refund.failed` only. */
export const refundWebhookData = (type: WebhookEventName, data: RefundWebhookData): RefundWebhookData => {
  const out = onlyFields(data, REFUND_FIELDS);
  if (type === 'refund.failed') out.failure_reason = out.failure_reason ?? null;
  else delete out.failure_reason;
  return out;
};

/** An integration event the notifier turns into a webhook. */
export type WebhookEvent = IntegrationEvent<WebhookEventName>;

/**
 * What `data` the event's integration data becomes. The catalogue has parsed the data against the
 * event's type at the boundary, so each cast below only restates what that check proved.
 */
const publicData = (type: WebhookEventName, data: WebhookSourceData): object => {
  switch (type) {
    case 'payment.completed':
    case 'payment.failed':
      return paymentWebhookData(data as PaymentWebhookData);
    case 'refund.created':
    case 'refund.completed':
    case 'refund.failed':
      return refundWebhookData(type, data as RefundWebhookData);
    case 'checkout.session.completed':
      return checkoutSessionCompletedWebhookData(data as CheckoutSessionCompletedData);
    case 'checkout.session.expired':
      return checkoutSessionExpiredWebhookData(data as CheckoutSessionExpiredData);
    case 'withdrawal.completed':
      return withdrawalCompletedWebhookData(data as WithdrawalCompletedData);
    case 'withdrawal.failed':
      return withdrawalFailedWebhookData(data as WithdrawalFailedData);
    case 'invoice.issued':
      return invoiceIssuedWebhookData(data as InvoiceIssuedData);
  }
};

/** An integration event's data (the spec's payment and refund data are the webhooks' plus internal fields). */
export type WebhookSourceData = WebhookEvent['data'] | PaymentWebhookData | RefundWebhookData;

/** The merchant an event belongs to: the spec's events name it in snake_case, the extensions in camelCase. */
export const merchantOf = (event: WebhookEvent): string =>
  'merchant_id' in event.data ? event.data.merchant_id : event.data.merchantId;

/**
 * The exact JSON body sent for an event, `{event, timestamp, data}`. It is built once and stored, so
 * every retry, redelivery and replay sends the same bytes (only the signature's timestamp changes).
 * `timestamp` is when the event happened.
 */
export const webhookBody = (type: WebhookEventName, occurredAt: string, data: WebhookSourceData): string => {
  const envelope: WebhookEnvelope = {
    event: type,
    timestamp: new Date(occurredAt).toISOString(),
    data: publicData(type, data) as WebhookEnvelope['data'],
  };
  return JSON.stringify(envelope);
};

/** The `payment.completed` sample the test operation sends: realistic, and obviously not real. */
export const samplePaymentCompleted = (): PaymentWebhookData => ({
  payment_id: randomUUID(),
  amount: '10.000000',
  currency: 'USDC',
  status: 'completed',
  tx_hash: `0x${randomBytes(32).toString('hex')}`,
  from_address: `0x${'1'.repeat(40)}`,
  to_address: `0x${'2'.repeat(40)}`,
  source_chain: 'BASE',
  destination_chain: null,
  is_cross_chain: false,
  customer_email: 'customer@example.com',
  reference: 'test-webhook',
  metadata: { test: true },
});
