import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '@stablepay/platform';
import { insertSealedSeedIfAbsent, readSealedSeed, replaceSealedSeed } from './master-seed-repo.js';
import {
  SEED_ALGORITHM,
  SEED_BYTES,
  WalletKeyError,
  openSeed,
  sealSeed,
  type SealedSeed,
} from './seed-crypto.js';

export interface MasterSeedOptions {
  /** WALLET_KEK_PREVIOUS: during a rotation, the key the stored seed may still be sealed under. */
  previousKek?: Buffer;
  logger?: Logger;
}

const opens = (sealed: SealedSeed, kek: Buffer): Buffer | undefined => {
  try {
    return openSeed(sealed, kek);
  } catch {
    return undefined;
  }
};

/**
 * The master seed every merchant key derives from: generated on the first start (32 random bytes),
 * stored only sealed under the KEK, and opened at every start. A KEK that cannot open it stops the
 * service: carrying on with a new seed would silently hand every merchant a different wallet.
 *
 * During a rotation (`previousKek` given) a seed that opens only with the previous key is re-sealed
 * under the current one, in one statement guarded by the row's current sealed value: replicas
 * starting together re-seal it once, and the others open what the first one wrote.
 */
export const loadOrCreateMasterSeed = async (
  db: Knex,
  kek: Buffer,
  opts: MasterSeedOptions = {},
): Promise<Buffer> => {
  let sealed = await readSealedSeed(db);
  if (!sealed) {
    const seed = randomBytes(SEED_BYTES);
    try {
      await insertSealedSeedIfAbsent(db, SEED_ALGORITHM, sealSeed(seed, kek));
    } finally {
      seed.fill(0);
    }
    // Read back: another replica may have stored its seed first, and that one wins.
    sealed = await readSealedSeed(db);
    if (!sealed) throw new WalletKeyError('the master seed could not be stored');
  }
  if (sealed.algorithm !== SEED_ALGORITHM) {
    throw new WalletKeyError(
      `the stored master seed uses ${sealed.algorithm}, which this version cannot open`,
    );
  }
  const { previousKek, logger } = opts;
  if (!previousKek) return openSeed(sealed, kek);
  const current = opens(sealed, kek);
  if (current) {
    logger?.info('the master seed is sealed under WALLET_KEK: WALLET_KEK_PREVIOUS can be removed');
    return current;
  }
  const seed = opens(sealed, previousKek);
  if (!seed) {
    throw new WalletKeyError(
      'neither WALLET_KEK nor WALLET_KEK_PREVIOUS can decrypt the stored master seed: the key it was sealed with is not among them, or the stored seed was altered.',
    );
  }
  if (await replaceSealedSeed(db, sealed, sealSeed(seed, kek))) {
    logger?.info('the master seed was re-sealed under WALLET_KEK: WALLET_KEK_PREVIOUS can be removed');
    return seed;
  }
  // Another replica re-sealed it first: what it stored must open with the current key.
  seed.fill(0);
  const now = await readSealedSeed(db);
  if (!now) throw new WalletKeyError('the master seed disappeared while being re-sealed');
  const reopened = openSeed(now, kek);
  logger?.info('the master seed was re-sealed under WALLET_KEK by another replica');
  return reopened;
};
