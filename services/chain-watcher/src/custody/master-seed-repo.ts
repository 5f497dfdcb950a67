import type { Knex } from 'knex';
import type { SealedSeed } from './seed-crypto.js';
import { MASTER_SEED } from '../migrations/tables.js';

interface SeedRow {
  algorithm: string;
  ciphertext: Buffer;
  iv: Buffer;
  auth_tag: Buffer;
}

export const readSealedSeed = async (db: Knex): Promise<(SealedSeed & { algorithm: string }) | undefined> => {
  const row = (await db(MASTER_SEED).where({ id: 1 }).first()) as SeedRow | undefined;
  if (!row) return undefined;
  return { algorithm: row.algorithm, ciphertext: row.ciphertext, iv: row.iv, authTag: row.auth_tag };
};

/** Inserts unless a seed exists: replicas starting together all end up with the first one stored. */
export const insertSealedSeedIfAbsent = async (
  db: Knex,
  algorithm: string,
  sealed: SealedSeed,
): Promise<void> => {
  await db(MASTER_SEED)
    .insert({ id: 1, algorithm, ciphertext: sealed.ciphertext, iv: sealed.iv, auth_tag: sealed.authTag })
    .onConflict('id')
    .ignore();
};

/**
 * Replaces the sealed seed only while the row still holds `expected` (every byte of it), so of two
 * replicas re-sealing together exactly one writes; the other finds the row already changed.
 * Returns whether this call wrote it.
 */
export const replaceSealedSeed = async (
  db: Knex,
  expected: SealedSeed,
  replacement: SealedSeed,
): Promise<boolean> =>
  db.transaction(async (trx) => {
    const updated = await trx(MASTER_SEED)
      .where({ id: 1, ciphertext: expected.ciphertext, iv: expected.iv, auth_tag: expected.authTag })
      .update({ ciphertext: replacement.ciphertext, iv: replacement.iv, auth_tag: replacement.authTag });
    return updated === 1;
  });
