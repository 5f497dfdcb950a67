import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import {
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_PREFIX,
  WebhookHeaders,
  webhookSignedString,
} from '@stablepay/contracts';

/**
 * `sha256=` + lower-case hex HMAC-SHA256 over `<timestamp>.<body>`, keyed with the endpoint's secret
 * exactly as it was shown to the merchant (the whole `whsec_…` string, UTF-8), or a key object made
 * from those bytes once (SigningKeys).
 */
export const signWebhook = (secret: string | KeyObject, timestampSeconds: number, body: string): string =>
  WEBHOOK_SIGNATURE_PREFIX +
  createHmac('sha256', secret).update(webhookSignedString(timestampSeconds, body), 'utf8').digest('hex');

export const USER_AGENT = 'StablePay-Webhooks/1.0';

/** The Standard Webhooks headers (https://www.standardwebhooks.com), sent beside the spec's own. */
export const StandardWebhookHeaders = {
  Id: 'webhook-id',
  Timestamp: 'webhook-timestamp',
  Signature: 'webhook-signature',
} as const;

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UNPADDED_BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The key bytes a Standard Webhooks receiver decodes from the secret. Secrets made since Standard
 * Webhooks headers are sent are `whsec_` + padded standard base64, and the key is what it encodes.
 * Older secrets are `whsec_` + unpadded base64url of 32 random bytes, which those libraries refuse
 * to decode: their key is the same 32 bytes (what Node's lenient base64 decoding also yields), and
 * the receiver configures the re-spelling `standardWebhookSecret` gives. Anything else (no secret
 * this service made) is keyed with the UTF-8 bytes of the part after `whsec_`.
 */
export const standardWebhookKey = (secret: string): Buffer => {
  const value = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  if (value.length > 0 && STANDARD_BASE64.test(value)) return Buffer.from(value, 'base64');
  if (UNPADDED_BASE64URL.test(value) && value.length % 4 !== 1) return Buffer.from(value, 'base64url');
  return Buffer.from(value, 'utf8');
};

/** The secret as a Standard Webhooks library takes it: the same as shown for every secret made now. */
export const standardWebhookSecret = (secret: string): string =>
  `${WEBHOOK_SECRET_PREFIX}${standardWebhookKey(secret).toString('base64')}`;

/** An endpoint's two HMAC keys, prepared once from its secret (SigningKeys caches them). */
export interface EndpointKeys {
  /** the spec's: the whole secret, UTF-8 */
  spec: KeyObject;
  /** Standard Webhooks': the bytes the part after `whsec_` encodes */
  standard: KeyObject;
}

export const endpointKeys = (secret: string): EndpointKeys => ({
  spec: createSecretKey(Buffer.from(secret, 'utf8')),
  standard: createSecretKey(standardWebhookKey(secret)),
});

/** `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`, as Standard Webhooks signs. */
export const signStandardWebhook = (
  key: KeyObject | Buffer,
  id: string,
  timestampSeconds: number,
  body: string,
): string =>
  `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;

/**
 * The headers of one attempt, in their canonical casing (for receivers that look them up
 * case-sensitively). Each attempt gets its own timestamp and therefore its own signatures; the
 * Standard Webhooks id is the event's id, so it is the same on every retry of the event.
 */
export const webhookHeaders = (opts: {
  secret: string | EndpointKeys;
  body: string;
  event: string;
  eventId: string;
  isTest: boolean;
  timestampSeconds: number;
}): Record<string, string> => {
  const keys = typeof opts.secret === 'string' ? endpointKeys(opts.secret) : opts.secret;
  const { body, eventId, timestampSeconds } = opts;
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    [WebhookHeaders.Signature]: signWebhook(keys.spec, timestampSeconds, body),
    [WebhookHeaders.Event]: opts.event,
    [WebhookHeaders.Timestamp]: String(timestampSeconds),
    [WebhookHeaders.Test]: opts.isTest ? 'true' : 'false',
    [WebhookHeaders.EventId]: eventId,
    [StandardWebhookHeaders.Id]: eventId,
    [StandardWebhookHeaders.Timestamp]: String(timestampSeconds),
    [StandardWebhookHeaders.Signature]: signStandardWebhook(keys.standard, eventId, timestampSeconds, body),
  };
};
