import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { insertSealedSeedIfAbsent, readSealedSeed } from '../db/master-seed-repo.js';
import { SEED_ALGORITHM, SEED_BYTES, WalletKeyError, openSeed, sealSeed } from './seed-crypto.js';

/**
 * The master seed every merchant key derives from: generated on the first start (32 random bytes),
 * stored only sealed under the KEK, and opened at every start. A KEK that cannot open it stops the
 * service: carrying on with a new seed would silently hand every merchant a different wallet.
 */
export const loadOrCreateMasterSeed = async (db: Knex, kek: Buffer): Promise<Buffer> => {
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
  return openSeed(sealed, kek);
};
