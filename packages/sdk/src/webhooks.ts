import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** Headers as Node's IncomingMessage, a fetch Request or a plain object give them. */
export type WebhookHeaders =
  { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface ConstructEventOptions {
  /** How far the signed timestamp may be from now, either way; the spec says 5 minutes. */
  toleranceSeconds?: number;
  /** Unix seconds taken as now (tests). */
  nowSeconds?: number;
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;
const TIMESTAMP = /^\d{1,12}$/;
const encoder = new TextEncoder();

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
};

const hexBytes = (hex: string): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
};

const bytesOf = (body: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof body === 'string' ? encoder.encode(body) : new Uint8Array(body);

/**
 * The bytes signed: `<timestamp>.` and the raw body as received. The key is the whole secret as
 * shown (`whsec_…`), UTF-8, as the specification says.
 */
const signatureValid = async (secret: string, timestamp: string, body: Uint8Array, hex: string) => {
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  // Web Crypto's verify compares in constant time; it sees only well-formed 32-byte signatures.
  return globalThis.crypto.subtle.verify('HMAC', key, hexBytes(hex), signed);
};

const verify = async (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: ConstructEventOptions,
): Promise<WebhookEvent> => {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError('the raw body (string or bytes) is needed, not a parsed object');
  }
  if (typeof secret !== 'string' || secret.length === 0)
    throw new WebhookVerificationError('no webhook secret');
  const timestamp = header(headers, 'x-service-timestamp')?.trim() ?? '';
  const signature = SIGNATURE.exec(header(headers, 'x-service-signature')?.trim() ?? '');
  if (!TIMESTAMP.test(timestamp))
    throw new WebhookVerificationError('missing or malformed X-Service-Timestamp');
  if (!signature) throw new WebhookVerificationError('missing or malformed X-Service-Signature');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('timestamp outside the tolerance');
  }
  const body = bytesOf(rawBody);
  if (!(await signatureValid(secret, timestamp, body, signature[1]!))) {
    throw new WebhookVerificationError('signature does not match');
  }
  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('body is not JSON');
  }
};

/**
 * Verifies a delivery's X-Service-Signature over the raw body and returns the event. Whatever the
 * request holds, the only error it throws is WebhookVerificationError: answer 401 on it.
 */
export const constructEvent = async (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: ConstructEventOptions = {},
): Promise<WebhookEvent> => {
  try {
    return await verify(rawBody, headers, secret, options);
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw err;
    throw new WebhookVerificationError('the webhook could not be verified', { cause: err });
  }
};

export const webhooks = { constructEvent };
