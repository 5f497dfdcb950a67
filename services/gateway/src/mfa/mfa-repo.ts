import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '@stablepay/platform';

export const replaceRecoveryCodes = async (db: Db, userId: string, digests: string[]): Promise<void> => {
  await db('recovery_codes').where({ user_id: userId }).delete();
  if (digests.length)
    await db('recovery_codes').insert(
      digests.map((d) => ({ id: randomUUID(), user_id: userId, code_digest: d })),
    );
};

/** Marks an unused recovery code used; false when there is none such (the UPDATE decides, no race). */
export const useRecoveryCode = async (db: Db, userId: string, digest: string): Promise<boolean> =>
  (await db('recovery_codes')
    .where({ user_id: userId, code_digest: digest })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() })) === 1;

export const recoveryCodesLeft = async (db: Db, userId: string): Promise<number> => {
  const [row] = await db('recovery_codes')
    .where({ user_id: userId })
    .whereNull('used_at')
    .count<{ count: string | number }[]>({ count: '*' });
  return Number(row?.count ?? 0);
};

export interface ChallengeRow {
  id: string;
  user_id: string;
  token_digest: string;
  attempts: number;
  expires_at: Date;
  used_at: Date | null;
}

export const insertChallenge = async (
  db: Db,
  row: Omit<ChallengeRow, 'attempts' | 'used_at'>,
): Promise<void> => {
  await db('mfa_challenges').insert(row);
};

export const lockChallenge = async (
  trx: Knex.Transaction,
  digest: string,
): Promise<ChallengeRow | undefined> =>
  trx<ChallengeRow>('mfa_challenges').where({ token_digest: digest }).forUpdate().first();

export const recordChallengeAttempt = async (
  db: Db,
  id: string,
  outcome: { used: boolean },
): Promise<void> => {
  await db('mfa_challenges')
    .where({ id })
    .update({ attempts: db.raw('attempts + 1'), ...(outcome.used ? { used_at: db.fn.now() } : {}) });
};
