import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SEED_BYTES = 32;
export const SEED_ALGORITHM = 'aes-256-gcm';

/**
 * Binds the ciphertext to its purpose: a blob sealed for something else under the same key cannot be
 * passed off as the master seed, and bumping the version marks a change of scheme.
 */
const AAD = Buffer.from('stablepay/chain-watcher/master-seed/v1', 'utf8');

/** The master seed as stored: never the seed itself. */
export interface SealedSeed {
  ciphertext: Buffer;
  iv: Buffer;
  authTag: Buffer;
}

/** A key or seed problem that must stop the service; the message says what to fix, never a secret. */
export class WalletKeyError extends Error {
  override readonly name = 'WalletKeyError';
}

export const sealSeed = (seed: Buffer, kek: Buffer): SealedSeed => {
  if (kek.length !== 32) throw new WalletKeyError('WALLET_KEK must be 32 bytes');
  const iv = randomBytes(12); // a fresh 96-bit nonce per encryption, as GCM requires
  const cipher = createCipheriv(SEED_ALGORITHM, kek, iv);
  cipher.setAAD(AAD);
  const ciphertext = Buffer.concat([cipher.update(seed), cipher.final()]);
  return { ciphertext, iv, authTag: cipher.getAuthTag() };
};

/** Decrypts and authenticates; a wrong key and a tampered row both fail here, loudly. */
export const openSeed = (sealed: SealedSeed, kek: Buffer): Buffer => {
  if (kek.length !== 32) throw new WalletKeyError('WALLET_KEK must be 32 bytes');
  try {
    const decipher = createDecipheriv(SEED_ALGORITHM, kek, sealed.iv);
    decipher.setAAD(AAD);
    decipher.setAuthTag(sealed.authTag);
    const seed = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
    if (seed.length !== SEED_BYTES) throw new Error('unexpected seed length');
    return seed;
  } catch {
    throw new WalletKeyError(
      'WALLET_KEK cannot decrypt the stored master seed: it is not the key the seed was encrypted with, or the stored seed was altered. Start with the original WALLET_KEK.',
    );
  }
};
