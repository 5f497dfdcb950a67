import type { LogoutBody, RefreshBody, TokenPair } from '@stablepay/contracts';
import { unauthorized } from '@stablepay/platform';
import type { Knex } from 'knex';
import { appendAudit } from '../audit/audit-log-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { findMerchantById } from '../merchants/merchants-repo.js';
import {
  findRefreshToken,
  findRefreshTokenForUpdate,
  markRefreshTokenUsed,
  revokeFamily,
  type RefreshTokenRow,
} from './refresh-tokens-repo.js';
import { issueTokens, refreshTokenDigest } from './tokens.js';
import { findUserById } from './users-repo.js';

const INVALID_REFRESH = 'Invalid or expired refresh token';

type RefreshOutcome = { kind: 'ok'; pair: TokenPair } | { kind: 'rejected' };

/** A used or revoked token presented again: one of its two holders is not the user. */
const revokeReusedFamily = async (
  trx: Knex.Transaction,
  row: RefreshTokenRow,
  meta: RequestMeta,
): Promise<RefreshOutcome> => {
  const revoked = await revokeFamily(trx, row.family_id);
  await appendAudit(trx, {
    action: 'auth.refresh_reuse_detected',
    userId: row.user_id,
    merchantId: (await findUserById(trx, row.user_id))?.merchant_id,
    details: { familyId: row.family_id, tokensRevoked: revoked },
    ...meta,
  });
  return { kind: 'rejected' };
};

/**
 * Rotates a refresh token: the presented one is marked used and a new one of the same family is
 * issued. A token that was already used or revoked is evidence of theft (one of two holders is not
 * the user), so the whole family is revoked and both holders must sign in again.
 */
export const refresh = async (
  ctx: GatewayContext,
  body: RefreshBody,
  meta: RequestMeta,
): Promise<TokenPair> => {
  const digest = refreshTokenDigest(body.refresh_token);
  const outcome = await ctx.db.transaction(async (trx): Promise<RefreshOutcome> => {
    const row = await findRefreshTokenForUpdate(trx, digest);
    if (!row) return { kind: 'rejected' };
    if (row.used_at || row.revoked_at) return revokeReusedFamily(trx, row, meta);
    if (row.expires_at.getTime() <= Date.now()) return { kind: 'rejected' };
    const user = await findUserById(trx, row.user_id);
    const merchant = user ? await findMerchantById(trx, user.merchant_id) : undefined;
    if (!user || !merchant) return { kind: 'rejected' };
    await markRefreshTokenUsed(trx, row.id);
    return {
      kind: 'ok',
      pair: await issueTokens(ctx, trx, user, merchant, row.family_id, row.authenticated_at),
    };
  });
  if (outcome.kind === 'rejected') throw unauthorized(INVALID_REFRESH);
  return outcome.pair;
};

/** Ends the session the refresh token belongs to. Unknown tokens succeed too (nothing to end). */
export const logout = async (ctx: GatewayContext, body: LogoutBody, meta: RequestMeta): Promise<void> => {
  const { db } = ctx;
  const row = await findRefreshToken(db, refreshTokenDigest(body.refresh_token));
  if (!row) return;
  await db.transaction(async (trx) => {
    await revokeFamily(trx, row.family_id);
    await appendAudit(trx, {
      action: 'auth.logout',
      userId: row.user_id,
      // In the merchant's audit log with its sign-ins.
      merchantId: (await findUserById(trx, row.user_id))?.merchant_id,
      details: { familyId: row.family_id },
      ...meta,
    });
  });
};
