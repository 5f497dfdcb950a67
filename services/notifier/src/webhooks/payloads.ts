import { randomBytes, randomUUID } from 'node:crypto';
import {
  PaymentWebhookData,
  RefundWebhookData,
  type WebhookEnvelope,
  type WebhookEventName,
} from '@stablepay/contracts';

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

/**
 * The exact JSON body sent for an event, `{event, timestamp, data}`. It is built once and stored, so
 * every retry, redelivery and replay sends the same bytes (only the signature's timestamp changes).
 * `timestamp` is when the event happened.
 */
export const webhookBody = (
  type: WebhookEventName,
  occurredAt: string,
  data: PaymentWebhookData | RefundWebhookData,
): string => {
  const envelope: WebhookEnvelope = {
    event: type,
    timestamp: new Date(occurredAt).toISOString(),
    data: 'refund_id' in data ? refundWebhookData(type, data) : paymentWebhookData(data),
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
