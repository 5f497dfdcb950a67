import { randomUUID } from 'node:crypto';
import type { LoginBody, MfaChallenge, TokenPair } from '@stablepay/contracts';
import { unauthorized } from '@stablepay/platform';
import { appendAudit, auditUserAction } from '../audit/audit-log-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { findMerchantById } from '../merchants/merchants-repo.js';
import { createChallenge } from '../mfa/challenge.js';
import { verifyPassword } from './passwords.js';
import { accountLocked, signInAccountKey, type SignInFailure } from './sign-in-lockout.js';
import { issueTokens } from './tokens.js';
import { findUserByEmail, type UserRow } from './users-repo.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * A token pair, or a challenge for the second step when the account has two-factor sign-in.
 * Attempts are counted per account (the e-mail, known or not) whatever address they come from,
 * before the password is checked, and the right password clears the count: past
 * SIGNIN_LOCKOUT_FAILURES in the window the account is locked and even the right password is
 * refused, so guessing from many addresses, or many guesses at once, gains nothing. Every failure
 * is in the audit log.
 */
export const login = async (
  ctx: GatewayContext,
  body: LoginBody,
  meta: RequestMeta,
): Promise<TokenPair | MfaChallenge> => {
  const { db } = ctx;
  const account = signInAccountKey(body.email);
  const lockedFor = await ctx.signInFailures.attempt(account);
  if (lockedFor !== undefined) {
    // Known e-mail or not, the same lookup and write: a lock-out reveals no accounts.
    const named = await findUserByEmail(db, body.email);
    await auditFailure(ctx, meta, { email: body.email, user: named, reason: 'account_locked' });
    throw accountLocked(lockedFor);
  }
  const user = await findUserByEmail(db, body.email);
  // Unknown e-mail or not, one scrypt is spent, so response time does not reveal accounts.
  const valid = await verifyPassword(body.password, user?.password_hash ?? (await ctx.decoyPasswordHash()));
  const merchant = user && valid ? await findMerchantById(db, user.merchant_id) : undefined;
  if (!user || !valid || !merchant) {
    const reason = !user ? 'unknown_account' : valid ? 'no_merchant' : 'wrong_password';
    await auditFailure(ctx, meta, { email: body.email, user, reason });
    throw unauthorized(INVALID_CREDENTIALS);
  }
  // The right password ends a run of mistakes.
  await ctx.signInFailures.clear(account);
  if (user.totp_enabled_at) return createChallenge(ctx, user);
  return db.transaction(async (trx) => {
    const pair = await issueTokens(ctx, trx, user, merchant, randomUUID());
    await auditUserAction(trx, 'auth.login_succeeded', user, meta);
    return pair;
  });
};

/** A refused sign-in: the e-mail tried, the account it names (if any) and why it was refused. */
interface FailedSignIn {
  email: string;
  user: UserRow | undefined;
  reason: SignInFailure;
}

const auditFailure = (
  ctx: GatewayContext,
  meta: RequestMeta,
  { email, user, reason }: FailedSignIn,
): Promise<void> =>
  appendAudit(ctx.db, {
    action: 'auth.login_failed',
    userId: user?.id,
    // The account's merchant sees attempts on it in its audit log.
    merchantId: user?.merchant_id,
    details: { email, reason },
    ...meta,
  });
