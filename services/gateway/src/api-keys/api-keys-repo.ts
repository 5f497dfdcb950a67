import type { Knex } from 'knex';

export interface ApiKeyRow {
  id: string;
  merchant_id: string;
  name: string;
  key_digest: string;
  /** `pepperFingerprint` of the pepper `key_digest` was made with; null on rows made before it existed. */
  pepper_fingerprint: string | null;
  last4: string;
  /** What the key may do (ApiKeyScope values). */
  scopes: string[];
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
  /** The digest the key was found by. */
  key_digest: string;
  scopes: string[];
}

export const insertApiKey = async (
  db: Knex | Knex.Transaction,
  row: Pick<
    ApiKeyRow,
    'id' | 'merchant_id' | 'name' | 'key_digest' | 'pepper_fingerprint' | 'last4' | 'scopes' | 'created_by'
  >,
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

/**
 * Looked up on every request (no cache), so a revocation is effective at once on every replica.
 * Several digests (one per pepper during a rotation) are looked up in one statement: a key moved
 * from one to the other by a concurrent request is still seen under one of them.
 */
export const findActiveApiKeyByDigest = async (
  db: Knex,
  digests: string | readonly string[],
): Promise<ApiKeyPrincipalRow | undefined> =>
  db('api_keys as k')
    .join('merchants as m', 'm.id', 'k.merchant_id')
    .whereIn('k.key_digest', typeof digests === 'string' ? [digests] : [...digests])
    .whereNull('k.revoked_at')
    .first(
      'k.id',
      'k.merchant_id',
      'm.public_id as merchant_public_id',
      'k.last_used_at',
      'k.key_digest',
      'k.scopes',
    );

/**
 * Moves a key found under the previous pepper to the current one. The digest it was found by is in
 * the WHERE: of two requests moving the same key at once, one updates and the other matches
 * nothing, and both go on authenticated. False when another request moved it first.
 */
export const moveApiKeyDigest = async (
  db: Knex,
  move: { id: string; from: string; to: string; pepperFingerprint: string },
): Promise<boolean> => {
  const n = await db('api_keys')
    .where({ id: move.id, key_digest: move.from })
    .update({ key_digest: move.to, pepper_fingerprint: move.pepperFingerprint });
  return n === 1;
};

/**
 * Marks the keys made before fingerprints were stored as made under `fingerprint`. Only right when
 * no rotation is under way: then every key that works is under the current pepper.
 */
export const markUnfingerprintedApiKeys = async (db: Knex, fingerprint: string): Promise<number> =>
  db('api_keys').whereNull('pepper_fingerprint').update({ pepper_fingerprint: fingerprint });

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
