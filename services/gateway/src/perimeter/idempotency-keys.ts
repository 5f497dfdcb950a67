import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** Idempotency-Key: 1-255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_TTL_HOURS = 24;

/** What makes two requests "the same request": who, what, where, and the client's key. */
export interface IdempotencyScope {
  /** `key:<api key id>`, `user:<user id>` or `ip:<client ip>` */
  caller: string;
  method: string;
  path: string;
  key: string;
}

export interface IdempotencyRecordKeys {
  lookupDigest: string;
  requestHash(body: Buffer): string;
  seal(plain: Buffer): Buffer;
  open(sealed: Buffer): Buffer;
}

const mac = (key: Buffer | string, ...parts: Array<string | Buffer>): Buffer => {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p).update('\0');
  return h.digest();
};

/**
 * Everything stored about an idempotent request is keyed off a secret derived from the server
 * pepper and the client's Idempotency-Key: the row is found by an HMAC, the request body is
 * fingerprinted with an HMAC (a login body holds a password), and the saved response (it may hold
 * a new API key, tokens or a webhook secret) is encrypted with AES-256-GCM. A copy of the table
 * alone reveals nothing.
 */
export const idempotencyRecordKeys = (pepper: string, scope: IdempotencyScope): IdempotencyRecordKeys => {
  const root = mac(pepper, 'idempotency.v1', scope.caller, scope.method.toUpperCase(), scope.path, scope.key);
  const encryptionKey = mac(root, 'encrypt');
  return {
    lookupDigest: mac(root, 'lookup').toString('hex'),
    requestHash: (body) => mac(root, 'request', body).toString('hex'),
    seal: (plain) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), ct]);
    },
    open: (sealed) => {
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
    },
  };
};
