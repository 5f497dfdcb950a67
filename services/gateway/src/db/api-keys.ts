import type { Knex } from 'knex';

export interface ApiKeyRow {
  id: string;
  merchant_id: string;
  name: string;
  key_digest: string;
  last4: string;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** An active key together with the merchant it authenticates. */
export interface ApiKeyPrincipalRow {
  id: string;
  merchant_id: string;
  merchant_public_id: string;
  last_used_at: Date | null;
}

export const insertApiKey = async (
  db: Knex | Knex.Transaction,
  row: Pick<ApiKeyRow, 'id' | 'merchant_id' | 'name' | 'key_digest' | 'last4' | 'created_by'>,
): Promise<ApiKeyRow> => {
  const [created] = await db<ApiKeyRow>('api_keys').insert(row).returning('*');
  return created!;
};

export const listActiveApiKeys = async (db: Knex, merchantId: string): Promise<ApiKeyRow[]> =>
  db<ApiKeyRow>('api_keys')
    .where({ merchant_id: merchantId })
    .whereNull('revoked_at')
    .orderBy('created_at', 'desc');

/** Revokes one of the merchant's active keys; false when it has none with that id. */
export const revokeApiKey = async (
  db: Knex | Knex.Transaction,
  merchantId: string,
  id: string,
): Promise<boolean> => {
  const n = await db('api_keys')
    .where({ id, merchant_id: merchantId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  return n === 1;
};

/** Looked up on every request (no cache), so a revocation is effective at once on every replica. */
export const findActiveApiKeyByDigest = async (
  db: Knex,
  digest: string,
): Promise<ApiKeyPrincipalRow | undefined> =>
  db('api_keys as k')
    .join('merchants as m', 'm.id', 'k.merchant_id')
    .where('k.key_digest', digest)
    .whereNull('k.revoked_at')
    .first('k.id', 'k.merchant_id', 'm.public_id as merchant_public_id', 'k.last_used_at');

/** Records use at most once a minute per key, so busy keys do not turn every read into a write. */
export const touchApiKey = async (db: Knex, id: string): Promise<void> => {
  await db('api_keys')
    .where({ id })
    .where((q) =>
      q.whereNull('last_used_at').orWhere('last_used_at', '<', db.raw(`now() - interval '1 minute'`)),
    )
    .update({ last_used_at: db.fn.now() });
};

/** How the merchant knows one of its keys (revoked ones included), for the audit log. */
export const findApiKeyLabel = async (
  db: Knex | Knex.Transaction,
  merchantId: string,
  id: string,
): Promise<Pick<ApiKeyRow, 'name' | 'last4'> | undefined> =>
  db<ApiKeyRow>('api_keys').where({ id, merchant_id: merchantId }).first('name', 'last4');
