import type { Knex } from 'knex';

/** Ends every session of a user: each refresh token not yet revoked is revoked now. */
export const revokeUserSessions = async (db: Knex | Knex.Transaction, userId: string): Promise<number> =>
  db('refresh_tokens').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
