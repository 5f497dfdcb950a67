import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { WEBHOOK_SECRET_PREFIX } from '@stablepay/contracts';
import { anySealedSecret } from './endpoints-repo.js';

const ALGORITHM = 'aes-256-gcm';
const SCHEME = 'v1';

/**
 * `whsec_` + 32 random bytes (256 bits, as strong as the HMAC key can use) in padded standard
 * base64, so that Standard Webhooks libraries decode the same secret into their key. Secrets made
 * before were unpadded base64url; they keep working (see standardWebhookKey).
 */
export const generateWebhookSecret = (): string =>
  `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** A sealed secret that does not open: wrong WEBHOOK_SECRET_KEK, or the row was altered or moved. */
export class SecretUnavailableError extends Error {
  override readonly name = 'SecretUnavailableError';
}

/**
 * The associated data binds a sealed secret to its endpoint: a ciphertext copied onto another
 * endpoint's row does not open there.
 */
const aad = (endpointId: string) => Buffer.from(`stablepay/notifier/webhook-secret/${SCHEME}/${endpointId}`);

/**
 * The signing secret must be recoverable (HMAC needs it), so it is encrypted rather than hashed:
 * AES-256-GCM under WEBHOOK_SECRET_KEK with a fresh 96-bit nonce, stored as
 * `v1.<nonce>.<tag>.<ciphertext>` (base64url).
 */
export const sealSecret = (secret: string, kek: Buffer, endpointId: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, kek, iv);
  cipher.setAAD(aad(endpointId));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [SCHEME, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
};

/**
 * WEBHOOK_SECRET_KEK and, during a rotation, WEBHOOK_SECRET_KEK_PREVIOUS: secrets are sealed under
 * `current` only, and open under either.
 */
export interface SecretKeks {
  current: Buffer;
  previous?: Buffer;
}

const openWith = (sealed: string, kek: Buffer, endpointId: string): string => {
  const [scheme, iv, tag, ciphertext] = sealed.split('.');
  if (scheme !== SCHEME || !iv || !tag || ciphertext === undefined) {
    throw new SecretUnavailableError('unknown sealed secret format');
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, kek, Buffer.from(iv, 'base64url'));
    decipher.setAAD(aad(endpointId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretUnavailableError(
      'the webhook secret cannot be decrypted: WEBHOOK_SECRET_KEK (or WEBHOOK_SECRET_KEK_PREVIOUS) is not the key it was sealed with, or the row was altered',
    );
  }
};

/** Opens under the given key, or under the current key and failing that the previous one. */
export const openSecret = (sealed: string, keks: Buffer | SecretKeks, endpointId: string): string => {
  if (Buffer.isBuffer(keks)) return openWith(sealed, keks, endpointId);
  try {
    return openWith(sealed, keks.current, endpointId);
  } catch (err) {
    if (!keks.previous) throw err;
    return openWith(sealed, keks.previous, endpointId);
  }
};

/** The sealed secret and its plaintext, or which key it is sealed under when that is not the current one. */
export const sealedUnder = (
  sealed: string,
  keks: SecretKeks,
  endpointId: string,
): { under: 'current' } | { under: 'previous'; secret: string } | { under: 'neither' } => {
  try {
    openWith(sealed, keks.current, endpointId);
    return { under: 'current' };
  } catch {
    if (!keks.previous) return { under: 'neither' };
    try {
      return { under: 'previous', secret: openWith(sealed, keks.previous, endpointId) };
    } catch {
      return { under: 'neither' };
    }
  }
};

/**
 * A KEK that cannot open the stored secrets stops the service at start, instead of every delivery
 * failing later with a signature nobody can produce. During a rotation a secret may open under
 * either key.
 */
export const checkSecretKek = async (db: Knex, keks: Buffer | SecretKeks): Promise<void> => {
  const stored = await anySealedSecret(db);
  if (stored) openSecret(stored.secretSealed, keks, stored.id);
};
