/** What the service POSTs to merchants' webhook endpoints (spec: Events). */
import { z } from 'zod';
import { CheckoutSessionId } from '../checkout/schemas.js';
import { INVOICE_NUMBER_RE, TaxCase, invoiceFigures } from '../invoices/schemas.js';
import { refundFields } from '../refunds/schemas.js';
import { RefundReason } from '../refunds/status.js';
import { DecimalString, amountInCurrency } from '../shared/money.js';
import { BlockchainName, IsoTimestamp, JsonObject, TxHash, Uuid } from '../shared/scalars.js';
import { withdrawalFigures } from '../withdrawals/schemas.js';

/** Every event a merchant may subscribe to, with what it means: the one list of their names. */
export const WEBHOOK_EVENT_DESCRIPTIONS = {
  'payment.completed': 'Payment confirmed on-chain and credited to the merchant wallet.',
  'payment.failed': 'Payment failed (transaction reverted or expired).',
  'refund.created': 'A refund was created for a payment.',
  'refund.completed': 'Refund completed on-chain and sent to the customer.',
  'refund.failed': 'Refund failed; failure_reason is in data.',
  // Extensions (docs/api/webhooks.md): the specification's five above stay as they are.
  'checkout.session.completed': 'A checkout session was paid: its payment completed.',
  'checkout.session.expired': 'A checkout session expired unpaid.',
  'withdrawal.completed':
    'A withdrawal reached its destination (net amount and fee both confirmed on-chain).',
  'withdrawal.failed': 'A withdrawal failed; failure_reason is in data.',
  'invoice.issued': 'An invoice was issued for a completed withdrawal; its PDF is available.',
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
  ...amountInCurrency,
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
  ...refundFields,
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

/*
 * Extension payloads. Like the specification's, they carry only what the merchant can use with the
 * public API (ids it can look up, decimal strings for money) and never the internal merchant id.
 */

/** Both checkout.session.* payloads open with the session and the status it reached. */
const sessionReached = <S extends 'complete' | 'expired'>(status: S) => ({
  session_id: CheckoutSessionId,
  status: z.literal(status),
});

/** checkout.session.completed: the session's payment completed (fetch it with `payment_id`). */
export const CheckoutSessionCompletedWebhookData = z.object({
  ...sessionReached('complete'),
  payment_id: Uuid,
  /** the session's amount, or the payment's for a session created without one */
  ...amountInCurrency,
  completed_at: IsoTimestamp,
});
export type CheckoutSessionCompletedWebhookData = z.infer<typeof CheckoutSessionCompletedWebhookData>;

/** checkout.session.expired: the session's time ran out before a payment was linked to it. */
export const CheckoutSessionExpiredWebhookData = z.object({
  ...sessionReached('expired'),
  expired_at: IsoTimestamp,
});
export type CheckoutSessionExpiredWebhookData = z.infer<typeof CheckoutSessionExpiredWebhookData>;

/** What leaves the merchant wallet: `amount` = `net_amount` to the destination + `fee`. */
const withdrawalFields = { withdrawal_id: Uuid, ...withdrawalFigures };

/** withdrawal.completed: both transfers confirmed; `tx_hash` is the net amount's, `fee_tx_hash` the fee's. */
export const WithdrawalCompletedWebhookData = z.object({
  ...withdrawalFields,
  status: z.literal('completed'),
  tx_hash: TxHash,
  fee_tx_hash: TxHash,
  completed_at: IsoTimestamp,
});
export type WithdrawalCompletedWebhookData = z.infer<typeof WithdrawalCompletedWebhookData>;

/** withdrawal.failed: a transfer failed; the hashes name whatever did reach the chain (null otherwise). */
export const WithdrawalFailedWebhookData = z.object({
  ...withdrawalFields,
  status: z.literal('failed'),
  tx_hash: TxHash.nullable(),
  fee_tx_hash: TxHash.nullable(),
  failure_reason: z.string(),
  failed_at: IsoTimestamp,
});
export type WithdrawalFailedWebhookData = z.infer<typeof WithdrawalFailedWebhookData>;

/**
 * invoice.issued: the invoice's figures as GET /invoices/api/list shows them; its PDF is fetched with
 * `invoice_id` (GET /invoices/api/:id/pdf). The storage path is not sent: the merchant cannot use it.
 */
export const InvoiceIssuedWebhookData = z.object({
  invoice_id: Uuid,
  invoice_number: z.string().regex(INVOICE_NUMBER_RE),
  withdrawal_id: Uuid,
  issued_at: IsoTimestamp,
  ...invoiceFigures,
  blockchain: BlockchainName,
  tax_case: TaxCase,
  /** the invoice this one corrects; null for the first invoice of a withdrawal */
  rectifies_invoice_id: Uuid.nullable(),
});
export type InvoiceIssuedWebhookData = z.infer<typeof InvoiceIssuedWebhookData>;

const envelopeOf = <E extends WebhookEventName, D extends z.ZodType>(event: E, data: D) =>
  WebhookEnvelope.extend({ event: z.literal(event), data });

export const CheckoutSessionCompletedWebhookEnvelope = envelopeOf(
  'checkout.session.completed',
  CheckoutSessionCompletedWebhookData,
);
export const CheckoutSessionExpiredWebhookEnvelope = envelopeOf(
  'checkout.session.expired',
  CheckoutSessionExpiredWebhookData,
);
export const WithdrawalCompletedWebhookEnvelope = envelopeOf(
  'withdrawal.completed',
  WithdrawalCompletedWebhookData,
);
export const WithdrawalFailedWebhookEnvelope = envelopeOf('withdrawal.failed', WithdrawalFailedWebhookData);
export const InvoiceIssuedWebhookEnvelope = envelopeOf('invoice.issued', InvoiceIssuedWebhookData);

/** The body schema of each event: the one place that says which payload an event carries. */
export const WEBHOOK_BODY_SCHEMAS = {
  'payment.completed': PaymentWebhookEnvelope,
  'payment.failed': PaymentWebhookEnvelope,
  'refund.created': RefundWebhookEnvelope,
  'refund.completed': RefundWebhookEnvelope,
  'refund.failed': RefundWebhookEnvelope,
  'checkout.session.completed': CheckoutSessionCompletedWebhookEnvelope,
  'checkout.session.expired': CheckoutSessionExpiredWebhookEnvelope,
  'withdrawal.completed': WithdrawalCompletedWebhookEnvelope,
  'withdrawal.failed': WithdrawalFailedWebhookEnvelope,
  'invoice.issued': InvoiceIssuedWebhookEnvelope,
} as const satisfies Record<WebhookEventName, z.ZodType>;
