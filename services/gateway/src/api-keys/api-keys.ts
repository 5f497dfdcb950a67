import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  API_KEY_SCOPES,
  DEFAULT_API_KEY_SCOPES,
  type ApiKeyListItem,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@stablepay/contracts';
import { notFound, type InternalClaims } from '@stablepay/platform';
import {
  findActiveApiKeyByDigest,
  insertApiKey,
  listActiveApiKeys,
  moveApiKeyDigest,
  revokeApiKey as revokeApiKeyRow,
  touchApiKey,
} from './api-keys-repo.js';
import { appendAudit } from '../audit/audit-log-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { apiKeyDigest, generateApiKey, looksLikeApiKey, pepperFingerprint } from './key-format.js';

/** The dashboard user acting on their merchant's keys. */
export interface KeyManager {
  userId: string;
  merchantId: string;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** A key's scopes in the catalogue's order, whatever order they were asked for in. */
const inScopeOrder = (scopes: readonly string[]): ApiKeyScope[] =>
  API_KEY_SCOPES.filter((s) => scopes.includes(s));

/**
 * A new key for the actor's merchant holding `scopes` (the default set when none are asked for:
 * withdrawals:write only ever on purpose); the full key is in the answer only. `keepAnswer` runs in the
 * creating transaction with that answer (the Idempotency-Key's record is completed there), so a
 * key is never made without the answer a retry of the same request gets.
 */
export const createApiKey = async (
  ctx: GatewayContext,
  actor: KeyManager,
  request: { name: string; scopes?: readonly ApiKeyScope[] },
  meta: RequestMeta,
  keepAnswer?: (trx: Knex.Transaction, created: CreatedApiKey) => Promise<void>,
): Promise<CreatedApiKey> => {
  const { config, db } = ctx;
  const { name } = request;
  const scopes = inScopeOrder(request.scopes ?? DEFAULT_API_KEY_SCOPES);
  const generated = generateApiKey(config.API_KEY_PEPPER, config.API_KEY_PREFIX, config.ENVIRONMENT);
  return db.transaction(async (trx) => {
    const created = await insertApiKey(trx, {
      id: randomUUID(),
      merchant_id: actor.merchantId,
      name,
      key_digest: generated.digest,
      pepper_fingerprint: pepperFingerprint(config.API_KEY_PEPPER),
      last4: generated.last4,
      scopes,
      created_by: actor.userId,
    });
    await appendAudit(trx, {
      action: 'api_key.created',
      userId: actor.userId,
      merchantId: actor.merchantId,
      apiKeyId: created.id,
      details: { name, last4: generated.last4, scopes: scopes.join(' ') },
      ...meta,
    });
    const answer: CreatedApiKey = {
      id: created.id,
      name: created.name,
      key: generated.key,
      created_at: created.created_at.toISOString(),
      scopes,
    };
    await keepAnswer?.(trx, answer);
    return answer;
  });
};

export const listApiKeys = async (ctx: GatewayContext, merchantId: string): Promise<ApiKeyListItem[]> =>
  (await listActiveApiKeys(ctx.db, merchantId)).map((k) => ({
    id: k.id,
    name: k.name,
    last4: k.last4,
    created_at: k.created_at.toISOString(),
    scopes: inScopeOrder(k.scopes),
  }));

/** Another merchant's key, or one already revoked, is simply not found. */
export const revokeApiKey = async (
  ctx: GatewayContext,
  actor: KeyManager,
  id: string,
  meta: RequestMeta,
): Promise<void> => {
  const revoked = await ctx.db.transaction(async (trx) => {
    if (!(await revokeApiKeyRow(trx, actor.merchantId, id))) return false;
    await appendAudit(trx, {
      action: 'api_key.revoked',
      userId: actor.userId,
      merchantId: actor.merchantId,
      apiKeyId: id,
      ...meta,
    });
    return true;
  });
  if (!revoked) throw notFound('API key');
};

/**
 * The active key a presented key stands for, under the current pepper or, while a rotation is
 * under way (API_KEY_PEPPER_PREVIOUS set), the previous one; a key found under the previous pepper
 * is moved to the current one in this request, so keys migrate as they are used. Digests are matched by the
 * database's unique index: the HMAC, not the key, is what is compared.
 */
const findPresentedKey = async (ctx: GatewayContext, presented: string) => {
  const { API_KEY_PEPPER: pepper, API_KEY_PEPPER_PREVIOUS: previous } = ctx.config;
  const digest = apiKeyDigest(pepper, presented);
  if (!previous) return findActiveApiKeyByDigest(ctx.db, digest);
  const row = await findActiveApiKeyByDigest(ctx.db, [digest, apiKeyDigest(previous, presented)]);
  if (!row || row.key_digest === digest) return row;
  try {
    await moveApiKeyDigest(ctx.db, {
      id: row.id,
      from: row.key_digest,
      to: digest,
      pepperFingerprint: pepperFingerprint(pepper),
    });
  } catch (err) {
    // The key is valid either way; it moves on a later request.
    ctx.logger.warn('could not move an API key to the current pepper', { err, apiKeyId: row.id });
  }
  return row;
};

/**
 * Resolves a presented key to the caller it stands for, reading the database every time: no cache
 * means a revocation holds at once on every replica.
 */
export const authenticateApiKey = async (
  ctx: GatewayContext,
  presented: string,
): Promise<InternalClaims | undefined> => {
  if (!looksLikeApiKey(presented)) return undefined;
  const row = await findPresentedKey(ctx, presented);
  if (!row) return undefined;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    touchApiKey(ctx.db, row.id).catch((err: unknown) =>
      ctx.logger.warn('could not record API key use', { err }),
    );
  }
  return {
    caller: 'api_key',
    merchantId: row.merchant_id,
    merchantPublicId: row.merchant_public_id,
    apiKeyId: row.id,
    scopes: row.scopes,
  };
};
