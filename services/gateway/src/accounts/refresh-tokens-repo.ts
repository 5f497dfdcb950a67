import type { Knex } from 'knex';

export interface RefreshTokenRow {
  id: string;
  family_id: string;
  user_id: string;
  token_digest: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  authenticated_at: Date | null;
}

export const insertRefreshToken = async (
  db: Knex | Knex.Transaction,
  row: Pick<
    RefreshTokenRow,
    'id' | 'family_id' | 'user_id' | 'token_digest' | 'expires_at' | 'authenticated_at'
  >,
): Promise<void> => {
  await db('refresh_tokens').insert(row);
};

/** Locks the row, so two concurrent refreshes with one token cannot both rotate it. */
export const findRefreshTokenForUpdate = async (
  trx: Knex.Transaction,
  digest: string,
): Promise<RefreshTokenRow | undefined> =>
  trx<RefreshTokenRow>('refresh_tokens').where({ token_digest: digest }).forUpdate().first();

export const findRefreshToken = async (db: Knex, digest: string): Promise<RefreshTokenRow | undefined> =>
  db<RefreshTokenRow>('refresh_tokens').where({ token_digest: digest }).first();

export const markRefreshTokenUsed = async (trx: Knex.Transaction, id: string): Promise<void> => {
  await trx('refresh_tokens').where({ id }).update({ used_at: trx.fn.now() });
};

export const revokeFamily = async (db: Knex | Knex.Transaction, familyId: string): Promise<number> =>
  db('refresh_tokens')
    .where({ family_id: familyId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });

/** Deletes tokens that expired over a day ago (the family's revocation no longer matters then). */
export const pruneExpiredRefreshTokens = async (db: Knex): Promise<number> =>
  db('refresh_tokens').where('expires_at', '<', db.raw(`now() - interval '1 day'`)).delete();

/** Ends every session of a user: each refresh token not yet revoked is revoked now. */
export const revokeUserSessions = async (db: Knex | Knex.Transaction, userId: string): Promise<number> =>
  db('refresh_tokens').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
