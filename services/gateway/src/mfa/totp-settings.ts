import { randomBytes, randomUUID } from 'node:crypto';
import type {
  DisableTotpBody,
  LoginMfaBody,
  MfaChallenge,
  MfaStatus,
  RecoveryCodes,
  TokenPair,
  TotpSetup,
} from '@stablepay/contracts';
import { RECOVERY_CODE_COUNT } from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, unauthorized } from '@stablepay/platform';
import type { Knex } from 'knex';
import { findMerchantById, findUserById, type UserRow } from '../accounts/users-repo.js';
import { appendAudit } from '../audit/audit-log-repo.js';
import {
  insertChallenge,
  lockChallenge,
  lockUser,
  recordChallengeAttempt,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  updateUserSecurity,
  useRecoveryCode,
} from './mfa-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { issueTokens } from '../accounts/sign-in.js';
import { hmacHex, sha256Hex } from '../crypto/digests.js';
import { verifyPassword } from '../accounts/passwords.js';
import { openSealed, peppers } from '../api-keys/pepper-rotation.js';
import { secretBox } from '../crypto/secret-box.js';
import { base32Encode, matchTotp, newTotpSecret, otpauthUrl } from './totp.js';

/** How long the second step of a sign-in may wait, and how many wrong codes one challenge takes. */
export const MFA_CHALLENGE_TTL_SECONDS = 300;
export const MFA_MAX_ATTEMPTS = 5;
const ISSUER = 'Stablepay';
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const INVALID_CHALLENGE = 'Sign-in expired or not found; sign in again';

const box = (ctx: GatewayContext) => secretBox(ctx.config.API_KEY_PEPPER, 'totp');
const invalidCode = (field = 'code') =>
  new AppError('unprocessable', 'The code is not valid', [
    fieldDetail(field, 'not a current authenticator code or an unused recovery code', 'invalid_code'),
  ]);

const normaliseRecovery = (code: string): string => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const recoveryDigestWith = (pepper: string, userId: string, code: string): string =>
  hmacHex(pepper, `recovery.v1\0${userId}\0${normaliseRecovery(code)}`);
const recoveryDigest = (ctx: GatewayContext, userId: string, code: string): string =>
  recoveryDigestWith(ctx.config.API_KEY_PEPPER, userId, code);
/** TOTP secrets are read under the current pepper or, during a rotation, the previous one. */
const openTotp = (ctx: GatewayContext, sealed: Buffer): Buffer => openSealed(ctx.config, 'totp', sealed);

/** Uses up a recovery code stored under any pepper in use (codes cannot be re-digested without the code). */
const useRecoveryCodeUnderAnyPepper = async (
  ctx: GatewayContext,
  trx: Knex.Transaction,
  userId: string,
  code: string,
): Promise<boolean> => {
  for (const pepper of peppers(ctx.config)) {
    if (await useRecoveryCode(trx, userId, recoveryDigestWith(pepper, userId, code))) return true;
  }
  return false;
};

/** Ten codes of two five-character groups (about 98 bits each), and the digests that are stored. */
const newRecoveryCodes = (ctx: GatewayContext, userId: string) => {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, digests: codes.map((c) => recoveryDigest(ctx, userId, c)) };
};

type SecondFactor = 'totp' | 'recovery_code';

/**
 * Checks a code against the user's (locked) row: a 6-digit code against the authenticator secret,
 * anything else as a recovery code, which is used up. Undefined when it is neither.
 */
const checkSecondFactor = async (
  ctx: GatewayContext,
  trx: Knex.Transaction,
  user: UserRow,
  code: string,
): Promise<SecondFactor | undefined> => {
  if (!user.totp_secret) return undefined;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const last = user.totp_last_step == null ? undefined : Number(user.totp_last_step);
    const step = matchTotp(openTotp(ctx, user.totp_secret), trimmed, Date.now(), last);
    if (step === undefined) return undefined;
    await updateUserSecurity(trx, user.id, { totp_last_step: step });
    return 'totp';
  }
  return (await useRecoveryCodeUnderAnyPepper(ctx, trx, user.id, trimmed)) ? 'recovery_code' : undefined;
};

/**
 * A current authenticator code for a step-up (recovery codes are for signing in, not for approving
 * actions). Each code is accepted once: the step it matched is recorded on the user's locked row.
 */
export const useStepUpCode = async (
  ctx: GatewayContext,
  trx: Knex.Transaction,
  user: UserRow,
  code: string,
): Promise<boolean> =>
  /^\d{6}$/.test(code.trim()) && (await checkSecondFactor(ctx, trx, user, code)) === 'totp';

export const mfaStatus = async (ctx: GatewayContext, userId: string): Promise<MfaStatus> => {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw unauthorized('Account no longer exists');
  return {
    totp_enabled: !!user.totp_enabled_at,
    enabled_at: user.totp_enabled_at?.toISOString() ?? null,
    recovery_codes_left: user.totp_enabled_at ? await recoveryCodesLeft(ctx.db, userId) : 0,
  };
};

/** A new pending secret; it replaces any earlier pending one and takes effect only once confirmed. */
export const setupTotp = async (ctx: GatewayContext, userId: string): Promise<TotpSetup> => {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw unauthorized('Account no longer exists');
  if (user.totp_enabled_at) throw conflict('Two-factor sign-in is already on; turn it off first');
  const secret = newTotpSecret();
  await updateUserSecurity(ctx.db, userId, { totp_pending_secret: box(ctx).seal(secret) });
  const text = base32Encode(secret);
  return { secret: text, otpauth_url: otpauthUrl(ISSUER, user.email, text) };
};

export const enableTotp = async (
  ctx: GatewayContext,
  userId: string,
  code: string,
  meta: RequestMeta,
): Promise<RecoveryCodes> =>
  ctx.db.transaction(async (trx) => {
    const user = await lockUser(trx, userId);
    if (!user) throw unauthorized('Account no longer exists');
    if (user.totp_enabled_at) throw conflict('Two-factor sign-in is already on');
    if (!user.totp_pending_secret) throw conflict('Start the set-up first');
    const step = matchTotp(openTotp(ctx, user.totp_pending_secret), code, Date.now(), undefined);
    if (step === undefined) throw invalidCode();
    const { codes, digests } = newRecoveryCodes(ctx, userId);
    await updateUserSecurity(trx, userId, {
      totp_secret: user.totp_pending_secret,
      totp_pending_secret: null,
      totp_enabled_at: new Date(),
      totp_last_step: step,
    });
    await replaceRecoveryCodes(trx, userId, digests);
    await appendAudit(trx, { action: 'auth.totp_enabled', userId, merchantId: user.merchant_id, ...meta });
    return { recovery_codes: codes };
  });

export const disableTotp = async (
  ctx: GatewayContext,
  userId: string,
  body: DisableTotpBody,
  meta: RequestMeta,
): Promise<MfaStatus> => {
  const current = await findUserById(ctx.db, userId);
  if (!current) throw unauthorized('Account no longer exists');
  if (!(await verifyPassword(body.password, current.password_hash)))
    throw new AppError('unprocessable', 'The password is wrong', [
      fieldDetail('password', 'does not match', 'wrong_password'),
    ]);
  await ctx.db.transaction(async (trx) => {
    const user = await lockUser(trx, userId);
    if (!user?.totp_enabled_at) throw conflict('Two-factor sign-in is off');
    if (!(await checkSecondFactor(ctx, trx, user, body.code))) throw invalidCode();
    await updateUserSecurity(trx, userId, {
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
    });
    await replaceRecoveryCodes(trx, userId, []);
    await appendAudit(trx, { action: 'auth.totp_disabled', userId, merchantId: user.merchant_id, ...meta });
  });
  return mfaStatus(ctx, userId);
};

export const regenerateRecoveryCodes = async (
  ctx: GatewayContext,
  userId: string,
  code: string,
  meta: RequestMeta,
): Promise<RecoveryCodes> =>
  ctx.db.transaction(async (trx) => {
    const user = await lockUser(trx, userId);
    if (!user?.totp_enabled_at) throw conflict('Two-factor sign-in is off');
    if ((await checkSecondFactor(ctx, trx, user, code)) !== 'totp') throw invalidCode();
    const { codes, digests } = newRecoveryCodes(ctx, userId);
    await replaceRecoveryCodes(trx, userId, digests);
    await appendAudit(trx, {
      action: 'auth.recovery_codes_regenerated',
      userId,
      merchantId: user.merchant_id,
      ...meta,
    });
    return { recovery_codes: codes };
  });

/** The first step's answer for an account with two-factor sign-in: a single-use challenge. */
export const createChallenge = async (ctx: GatewayContext, user: UserRow): Promise<MfaChallenge> => {
  const token = randomBytes(32).toString('base64url');
  await insertChallenge(ctx.db, {
    id: randomUUID(),
    user_id: user.id,
    token_digest: sha256Hex(token),
    expires_at: new Date(Date.now() + MFA_CHALLENGE_TTL_SECONDS * 1000),
  });
  return { mfa_required: true, mfa_token: token, expires_in: MFA_CHALLENGE_TTL_SECONDS };
};

type SecondStep =
  | { kind: 'ok'; pair: TokenPair }
  | { kind: 'expired' }
  | { kind: 'wrong'; userId: string; merchantId: string; attemptsLeft: number };

/**
 * The second step: the challenge (single use, 5 minutes, 5 wrong codes at most) and a code. A
 * wrong code is counted in its own committed transaction, so guessing burns the challenge and the
 * password must be given again.
 */
export const loginMfa = async (
  ctx: GatewayContext,
  body: LoginMfaBody,
  meta: RequestMeta,
): Promise<TokenPair> => {
  const outcome = await ctx.db.transaction(async (trx): Promise<SecondStep> => {
    const challenge = await lockChallenge(trx, sha256Hex(body.mfa_token));
    if (!challenge || challenge.used_at || challenge.expires_at.getTime() <= Date.now())
      return { kind: 'expired' };
    if (challenge.attempts >= MFA_MAX_ATTEMPTS) return { kind: 'expired' };
    const user = await lockUser(trx, challenge.user_id);
    const merchant = user ? await findMerchantById(trx, user.merchant_id) : undefined;
    if (!user || !merchant || !user.totp_enabled_at) return { kind: 'expired' };
    const factor = await checkSecondFactor(ctx, trx, user, body.code);
    if (!factor) {
      const attempts = challenge.attempts + 1;
      await recordChallengeAttempt(trx, challenge.id, { used: attempts >= MFA_MAX_ATTEMPTS });
      await appendAudit(trx, {
        action: 'auth.mfa_failed',
        userId: user.id,
        merchantId: merchant.id,
        details: { attempt: attempts },
        ...meta,
      });
      return {
        kind: 'wrong',
        userId: user.id,
        merchantId: merchant.id,
        attemptsLeft: MFA_MAX_ATTEMPTS - attempts,
      };
    }
    await recordChallengeAttempt(trx, challenge.id, { used: true });
    const pair = await issueTokens(ctx, trx, user, merchant, randomUUID());
    if (factor === 'recovery_code')
      await appendAudit(trx, {
        action: 'auth.recovery_code_used',
        userId: user.id,
        merchantId: merchant.id,
        ...meta,
      });
    await appendAudit(trx, {
      action: 'auth.login_succeeded',
      userId: user.id,
      merchantId: merchant.id,
      details: { second_factor: factor },
      ...meta,
    });
    return { kind: 'ok', pair };
  });
  if (outcome.kind === 'expired') throw unauthorized(INVALID_CHALLENGE);
  if (outcome.kind === 'wrong')
    throw outcome.attemptsLeft > 0
      ? new AppError('unauthorized', 'The code is not valid', [
          fieldDetail('code', `${outcome.attemptsLeft} attempts left`, 'invalid_code'),
        ])
      : unauthorized(INVALID_CHALLENGE);
  return outcome.pair;
};
