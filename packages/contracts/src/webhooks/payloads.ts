/** What the service POSTs to merchants' webhook endpoints (spec: Events). */
import { z } from 'zod';
import { RefundReason, RefundStatus } from '../refunds/status.js';
import { Currency, DecimalString } from '../shared/money.js';
import { IsoTimestamp, JsonObject, Uuid } from '../shared/scalars.js';

/** Every event a merchant may subscribe to, with what it means: the one list of their names. */
export const WEBHOOK_EVENT_DESCRIPTIONS = {
  'payment.completed': 'Payment confirmed on-chain and credited to the merchant wallet.',
  'payment.failed': 'Payment failed (transaction reverted or expired).',
  'refund.created': 'A refund was created for a payment.',
  'refund.completed': 'Refund completed on-chain and sent to the customer.',
  'refund.failed': 'Refund failed; failure_reason is in data.',
} satisfies Record<string, string>;

type EventName = keyof typeof WEBHOOK_EVENT_DESCRIPTIONS;
// Object.keys keeps the order above; its type is widened to string[], hence the cast.
export const WebhookEventName = z.enum(
  Object.keys(WEBHOOK_EVENT_DESCRIPTIONS) as [EventName, ...EventName[]],
);
export type WebhookEventName = z.infer<typeof WebhookEventName>;
export const WEBHOOK_EVENT_NAMES = WebhookEventName.options;

/** Request headers of every delivery. */
export const WebhookHeaders = {
  /** `sha256=` + lower-case hex HMAC-SHA256(secret, `<timestamp>.<body>`) */
  Signature: 'X-Service-Signature',
  Event: 'X-Service-Event',
  /** Unix seconds at sending */
  Timestamp: 'X-Service-Timestamp',
  /** `true` for test deliveries, `false` otherwise */
  Test: 'X-Service-Test',
  /** Our extension: stable id of the event, identical across retries and redeliveries (dedupe key). */
  EventId: 'X-Service-Event-Id',
} as const;
export type WebhookHeaderName = (typeof WebhookHeaders)[keyof typeof WebhookHeaders];

export const WEBHOOK_SIGNATURE_PREFIX = 'sha256=';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Receivers should refuse timestamps older than this. */
export const WEBHOOK_REPLAY_WINDOW_SECONDS = 300;
export const WEBHOOK_TIMEOUT_MS = 5000;
export const WEBHOOK_MAX_CONSECUTIVE_FAILURES = 10;

/** The string that is signed: `<timestamp>.<body>`. */
export function webhookSignedString(timestampSeconds: number | string, rawBody: string): string {
  return `${timestampSeconds}.${rawBody}`;
}

export const PaymentWebhookData = z.object({
  payment_id: Uuid,
  amount: DecimalString,
  currency: Currency,
  status: z.enum(['pending', 'completed', 'failed']),
  tx_hash: z.string().nullable(),
  from_address: z.string().nullable(),
  to_address: z.string().nullable(),
  source_chain: z.string().nullable(),
  /** null for same-chain payments */
  destination_chain: z.string().nullable(),
  is_cross_chain: z.boolean(),
  /** cross-chain only */
  merchant_transfer_tx_hash: z.string().optional(),
  customer_email: z.string().nullable().optional(),
  reference: z.string().nullable().optional(),
  metadata: JsonObject.nullable().optional(),
  /**
   * Extensions (docs/api/extensions.md): what the chain shows reached the merchant wallet, null while
   * unknown; what arrived beyond `amount` ("0.000000" when exact; null unless completed); for a
   * cross-chain payment what the crossing cost (burned − received), null when not known. Optional so
   * that events of earlier producers still parse.
   */
  received_amount: DecimalString.nullable().optional(),
  surplus_amount: DecimalString.nullable().optional(),
  cctp_fee_amount: DecimalString.nullable().optional(),
});
export type PaymentWebhookData = z.infer<typeof PaymentWebhookData>;

export const RefundWebhookData = z.object({
  refund_id: Uuid,
  payment_id: Uuid,
  amount: DecimalString,
  currency: Currency,
  status: RefundStatus,
  destination_address: z.string(),
  blockchain: z.string(),
  reason: RefundReason,
  /** null until the refund transaction exists */
  tx_hash: z.string().nullable(),
  /** refund.failed only */
  failure_reason: z.string().nullable().optional(),
});
export type RefundWebhookData = z.infer<typeof RefundWebhookData>;

/** `{event, timestamp, data}` */
export const WebhookEnvelope = z.object({
  event: WebhookEventName,
  timestamp: IsoTimestamp,
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEnvelope = z.infer<typeof WebhookEnvelope>;

export const PaymentWebhookEnvelope = WebhookEnvelope.extend({
  event: z.enum(['payment.completed', 'payment.failed']),
  data: PaymentWebhookData,
});
export type PaymentWebhookEnvelope = z.infer<typeof PaymentWebhookEnvelope>;

export const RefundWebhookEnvelope = WebhookEnvelope.extend({
  event: z.enum(['refund.created', 'refund.completed', 'refund.failed']),
  data: RefundWebhookData,
});
export type RefundWebhookEnvelope = z.infer<typeof RefundWebhookEnvelope>;
