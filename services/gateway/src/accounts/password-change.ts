import { randomUUID } from 'node:crypto';
import type { ChangePasswordBody, TokenPair } from '@stablepay/contracts';
import { AppError, fieldDetail, unauthorized } from '@stablepay/platform';
import { findMerchantById } from '../merchants/merchants-repo.js';
import { appendAudit } from '../audit/audit-log-repo.js';
import { revokeUserSessions } from './refresh-tokens-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { issueTokens } from './tokens.js';
import { lockUser, updateUserSecurity } from './users-repo.js';
import { hashPassword, verifyPassword } from './passwords.js';

/**
 * Changes the password after checking the current one. Every session of the user ends (a thief
 * holding a refresh token is locked out with the old password); the caller gets a fresh pair.
 * The scrypt work runs before the transaction, so no row stays locked across it.
 */
export const changePassword = async (
  ctx: GatewayContext,
  userId: string,
  body: ChangePasswordBody,
  meta: RequestMeta,
): Promise<TokenPair> => {
  const { db, config } = ctx;
  const current = await db('users').where({ id: userId }).first<{ password_hash: string } | undefined>();
  if (!current) throw unauthorized('Account no longer exists');
  if (!(await verifyPassword(body.current_password, current.password_hash)))
    throw new AppError('unprocessable', 'The current password is wrong', [
      fieldDetail('current_password', 'does not match', 'wrong_password'),
    ]);
  if (body.new_password === body.current_password)
    throw new AppError('unprocessable', 'The new password is the current one', [
      fieldDetail('new_password', 'must differ from the current password', 'password_unchanged'),
    ]);
  const hash = await hashPassword(body.new_password, config.SCRYPT_COST);
  return db.transaction(async (trx) => {
    const user = await lockUser(trx, userId);
    const merchant = user ? await findMerchantById(trx, user.merchant_id) : undefined;
    if (!user || !merchant) throw unauthorized('Account no longer exists');
    // Changed by another request since it was checked: refuse rather than overwrite blindly.
    if (user.password_hash !== current.password_hash)
      throw new AppError('conflict', 'The password was changed meanwhile; sign in again');
    await updateUserSecurity(trx, userId, { password_hash: hash });
    const revoked = await revokeUserSessions(trx, userId);
    await appendAudit(trx, {
      action: 'auth.password_changed',
      userId,
      merchantId: merchant.id,
      details: { sessionsEnded: revoked },
      ...meta,
    });
    return issueTokens(ctx, trx, user, merchant, randomUUID());
  });
};
