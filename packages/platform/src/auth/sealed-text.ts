import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Text one service hands another through the broker that neither the producer's outbox nor the
 * broker should hold in the clear (an e-mailed link's secret): AES-256-GCM under a key derived from
 * INTERNAL_TOKEN_SECRET, which every service has. `v1.<iv>.<ciphertext>.<tag>`, base64url.
 */
const keyOf = (secret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, 'stablepay', 'sealed-text.v1', 32));

export const sealText = (secret: string, text: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv, sealed, cipher.getAuthTag()]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
};

/** Opens text sealed under any of the secrets (the current one and, during a rotation, the previous). */
export const openText = (secrets: ReadonlyArray<string | undefined>, sealed: string): string => {
  const [version, iv, body, tag, ...rest] = sealed.split('.');
  if (version !== 'v1' || !iv || !body || !tag || rest.length > 0) throw new Error('not sealed text');
  for (const secret of secrets) {
    if (!secret) continue;
    try {
      const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      // another secret may have sealed it
    }
  }
  throw new Error('sealed text opens under none of the secrets');
};
