import { randomUUID } from 'node:crypto';
import {
  EventTypes,
  type LoginBody,
  type MfaChallenge,
  type LogoutBody,
  type RefreshBody,
  type RegisterBody,
  type RegisteredAccount,
  type RegistrationAccepted,
  type TokenPair,
} from '@stablepay/contracts';
import { AppError, fieldDetail, isUniqueViolation, unauthorized } from '@stablepay/platform';
import type { Knex } from 'knex';
import {
  findMerchantById,
  findUserByEmail,
  findUserById,
  insertMerchant,
  insertUser,
  USERS_EMAIL_UNIQUE,
  type MerchantRow,
  type UserRow,
} from './users-repo.js';
import { appendAudit } from '../audit/audit-log-repo.js';
import {
  findRefreshToken,
  findRefreshTokenForUpdate,
  insertRefreshToken,
  markRefreshTokenUsed,
  revokeFamily,
} from './refresh-tokens-repo.js';
import { writeEvent, type GatewayContext, type RequestMeta } from '../gateway-context.js';
import { signAccessToken } from './access-tokens.js';
import { randomSecret, refreshTokenDigest } from '../crypto/digests.js';
import {
  CONFIRMATION_TTL_SECONDS,
  issueConfirmation,
  registrationOfExistingAddress,
} from './email-confirmation.js';
import { merchantPublicId } from '../merchants/merchant-ids.js';
import { createChallenge } from '../mfa/totp-settings.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { accountLocked, signInAccountKey, type SignInFailure } from './sign-in-lockout.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';
const INVALID_REFRESH = 'Invalid or expired refresh token';

export const accountView = (user: UserRow, merchant: MerchantRow): RegisteredAccount => ({
  user: { id: user.id, email: user.email, email_confirmed: !!user.email_confirmed_at },
  merchant: {
    id: merchant.public_id,
    name: merchant.name,
    blockchain: merchant.blockchain as RegisteredAccount['merchant']['blockchain'],
    accepted_currencies: merchant.accepted_currencies as RegisteredAccount['merchant']['accepted_currencies'],
  },
});

/**
 * Creates the user and its merchant, announces the merchant and asks for the confirmation e-mail, all
 * in one transaction. An address that already has an account gets the same answer after the same
 * work (one scrypt, one failed insert), and its owner is e-mailed instead: the answer never tells
 * which addresses are registered.
 */
export const register = async (
  ctx: GatewayContext,
  body: RegisterBody,
  meta: RequestMeta,
): Promise<RegistrationAccepted> => {
  const { config, db } = ctx;
  if (!config.supportedBlockchains.includes(body.blockchain)) {
    throw new AppError('validation', 'Body validation failed', [
      fieldDetail(
        'blockchain',
        `must be one of ${config.supportedBlockchains.join(', ')}`,
        'unsupported_blockchain',
      ),
    ]);
  }
  const passwordHash = await hashPassword(body.password, config.SCRYPT_COST);
  const merchantId = randomUUID();
  const publicId = merchantPublicId(config.MERCHANT_ID_PREFIX, config.ENVIRONMENT, merchantId);
  try {
    await db.transaction(async (trx) => {
      const merchant = await insertMerchant(trx, {
        id: merchantId,
        public_id: publicId,
        name: body.merchantName,
        blockchain: body.blockchain,
        accepted_currencies: body.acceptedCurrencies,
      });
      const user = await insertUser(trx, {
        id: randomUUID(),
        email: body.email,
        password_hash: passwordHash,
        merchant_id: merchantId,
        // The first link counts against the account's allowance of confirmation e-mails.
        confirmation_sent_at: new Date(),
        confirmation_window_at: new Date(),
        confirmation_sends: 1,
      });
      await writeEvent(trx, EventTypes.MerchantCreated, merchantId, {
        merchantId,
        publicId,
        name: merchant.name,
        blockchain: body.blockchain,
        acceptedCurrencies: body.acceptedCurrencies,
        email: user.email,
        emailConfirmed: false,
      });
      await issueConfirmation(ctx, trx, user, merchant.name);
      await appendAudit(trx, { action: 'user.registered', userId: user.id, merchantId, ...meta });
    });
    ctx.eventsCommitted();
  } catch (err) {
    if (!isUniqueViolation(err, USERS_EMAIL_UNIQUE)) throw err;
    await registrationOfExistingAddress(ctx, body.email, meta);
  }
  return {
    email: body.email,
    confirmation_required: true,
    confirmation_expires_in: CONFIRMATION_TTL_SECONDS,
  };
};

export const issueTokens = async (
  ctx: GatewayContext,
  db: Knex | Knex.Transaction,
  user: UserRow,
  merchant: MerchantRow,
  familyId: string,
  /** When the user last proved who they are: now at a sign-in, the session's own time at a refresh. */
  authenticatedAt: Date | null = new Date(),
): Promise<TokenPair> => {
  const { config } = ctx;
  const refreshToken = randomSecret();
  await insertRefreshToken(db, {
    id: randomUUID(),
    family_id: familyId,
    user_id: user.id,
    token_digest: refreshTokenDigest(refreshToken),
    expires_at: new Date(Date.now() + config.REFRESH_TOKEN_TTL_SECONDS * 1000),
    authenticated_at: authenticatedAt,
  });
  const accessToken = signAccessToken(
    config.JWT_SECRET,
    {
      userId: user.id,
      merchantId: merchant.id,
      merchantPublicId: merchant.public_id,
      ...(authenticatedAt && { authTime: Math.floor(authenticatedAt.getTime() / 1000) }),
    },
    config.ACCESS_TOKEN_TTL_SECONDS,
  );
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: config.ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
    refresh_expires_in: config.REFRESH_TOKEN_TTL_SECONDS,
  };
};

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
    await auditFailure(ctx, body, meta, await findUserByEmail(db, body.email), 'account_locked');
    throw accountLocked(lockedFor);
  }
  const user = await findUserByEmail(db, body.email);
  // Unknown e-mail or not, one scrypt is spent, so response time does not reveal accounts.
  const valid = await verifyPassword(body.password, user?.password_hash ?? (await ctx.decoyPasswordHash()));
  const merchant = user && valid ? await findMerchantById(db, user.merchant_id) : undefined;
  if (!user || !valid || !merchant) {
    await auditFailure(
      ctx,
      body,
      meta,
      user,
      !user ? 'unknown_account' : valid ? 'no_merchant' : 'wrong_password',
    );
    throw unauthorized(INVALID_CREDENTIALS);
  }
  // The right password ends a run of mistakes.
  await ctx.signInFailures.clear(account);
  if (user.totp_enabled_at) return createChallenge(ctx, user);
  return db.transaction(async (trx) => {
    const pair = await issueTokens(ctx, trx, user, merchant, randomUUID());
    await appendAudit(trx, {
      action: 'auth.login_succeeded',
      userId: user.id,
      merchantId: merchant.id,
      ...meta,
    });
    return pair;
  });
};

const auditFailure = (
  ctx: GatewayContext,
  body: LoginBody,
  meta: RequestMeta,
  user: UserRow | undefined,
  reason: SignInFailure,
): Promise<void> =>
  appendAudit(ctx.db, {
    action: 'auth.login_failed',
    userId: user?.id,
    // The account's merchant sees attempts on it in its audit log.
    merchantId: user?.merchant_id,
    details: { email: body.email, reason },
    ...meta,
  });

type RefreshOutcome = { kind: 'ok'; pair: TokenPair } | { kind: 'rejected' };

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
  const { db } = ctx;
  const digest = refreshTokenDigest(body.refresh_token);
  const outcome = await db.transaction(async (trx): Promise<RefreshOutcome> => {
    const row = await findRefreshTokenForUpdate(trx, digest);
    if (!row) return { kind: 'rejected' };
    if (row.used_at || row.revoked_at) {
      const revoked = await revokeFamily(trx, row.family_id);
      await appendAudit(trx, {
        action: 'auth.refresh_reuse_detected',
        userId: row.user_id,
        merchantId: (await findUserById(trx, row.user_id))?.merchant_id,
        details: { familyId: row.family_id, tokensRevoked: revoked },
        ...meta,
      });
      return { kind: 'rejected' };
    }
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

export const me = async (ctx: GatewayContext, userId: string): Promise<RegisteredAccount> => {
  const user = await findUserById(ctx.db, userId);
  const merchant = user ? await findMerchantById(ctx.db, user.merchant_id) : undefined;
  if (!user || !merchant) throw new AppError('unauthorized', 'Account no longer exists');
  return accountView(user, merchant);
};
