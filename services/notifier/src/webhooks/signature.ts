import { createHmac, type KeyObject } from 'node:crypto';
import { WEBHOOK_SIGNATURE_PREFIX, WebhookHeaders, webhookSignedString } from '@stablepay/contracts';

/**
 * `sha256=` + lower-case hex HMAC-SHA256 over `<timestamp>.<body>`, keyed with the endpoint's secret
 * exactly as it was shown to the merchant (the whole `whsec_…` string, UTF-8), or a key object made
 * from those bytes once (SigningKeys).
 */
export const signWebhook = (secret: string | KeyObject, timestampSeconds: number, body: string): string =>
  WEBHOOK_SIGNATURE_PREFIX +
  createHmac('sha256', secret).update(webhookSignedString(timestampSeconds, body), 'utf8').digest('hex');

export const USER_AGENT = 'StablePay-Webhooks/1.0';

/**
 * The headers of one attempt, in their canonical casing (for receivers that look them up
 * case-sensitively). Each attempt gets its own timestamp and therefore its own signature.
 */
export const webhookHeaders = (opts: {
  secret: string | KeyObject;
  body: string;
  event: string;
  eventId: string;
  isTest: boolean;
  timestampSeconds: number;
}): Record<string, string> => ({
  'Content-Type': 'application/json',
  'User-Agent': USER_AGENT,
  [WebhookHeaders.Signature]: signWebhook(opts.secret, opts.timestampSeconds, opts.body),
  [WebhookHeaders.Event]: opts.event,
  [WebhookHeaders.Timestamp]: String(opts.timestampSeconds),
  [WebhookHeaders.Test]: opts.isTest ? 'true' : 'false',
  [WebhookHeaders.EventId]: opts.eventId,
});
