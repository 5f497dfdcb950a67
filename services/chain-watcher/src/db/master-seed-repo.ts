import type { Knex } from 'knex';
import type { SealedSeed } from '../custody/seed-crypto.js';
import { MASTER_SEED } from './migrations.js';

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
