import type { AuditAction, DisableTotpBody, MfaStatus, RecoveryCodes, TotpSetup } from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, unauthorized } from '@stablepay/platform';
import type { Knex } from 'knex';
import { verifyPassword } from '../accounts/passwords.js';
import { findUserById, lockUser, updateUserSecurity, type UserRow } from '../accounts/users-repo.js';
import { auditUserAction } from '../audit/audit-log-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { recoveryCodesLeft, replaceRecoveryCodes } from './mfa-repo.js';
import { checkSecondFactor, invalidCode, newRecoveryCodes, openTotp, totpBox } from './second-factor.js';
import { base32Encode, matchTotp, newTotpSecret, otpauthUrl } from './totp.js';

const ISSUER = 'Stablepay';

/** Replaces the user's recovery codes (none when two-factor sign-in goes off) and records why. */
const storeRecoveryCodes = async (
  trx: Knex.Transaction,
  user: UserRow,
  digests: string[],
  action: AuditAction,
  meta: RequestMeta,
): Promise<void> => {
  await replaceRecoveryCodes(trx, user.id, digests);
  await auditUserAction(trx, action, user, meta);
};

/** The user's row, locked for the change, with two-factor sign-in on. */
const lockEnrolledUser = async (trx: Knex.Transaction, userId: string): Promise<UserRow> => {
  const user = await lockUser(trx, userId);
  if (!user?.totp_enabled_at) throw conflict('Two-factor sign-in is off');
  return user;
};

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
  await updateUserSecurity(ctx.db, userId, { totp_pending_secret: totpBox(ctx).seal(secret) });
  const text = base32Encode(secret);
  return { secret: text, otpauth_url: otpauthUrl(ISSUER, user.email, text) };
};

/** A change the user approves with a code from their authenticator. */
type ApprovedWithCode<T> = (
  ctx: GatewayContext,
  userId: string,
  code: string,
  meta: RequestMeta,
) => Promise<T>;

export const enableTotp: ApprovedWithCode<RecoveryCodes> = async (ctx, userId, code, meta) =>
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
    await storeRecoveryCodes(trx, user, digests, 'auth.totp_enabled', meta);
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
    const user = await lockEnrolledUser(trx, userId);
    if (!(await checkSecondFactor(ctx, trx, user, body.code))) throw invalidCode();
    await updateUserSecurity(trx, userId, {
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
    });
    await storeRecoveryCodes(trx, user, [], 'auth.totp_disabled', meta);
  });
  return mfaStatus(ctx, userId);
};

export const regenerateRecoveryCodes: ApprovedWithCode<RecoveryCodes> = async (ctx, userId, code, meta) =>
  ctx.db.transaction(async (trx) => {
    const user = await lockEnrolledUser(trx, userId);
    if ((await checkSecondFactor(ctx, trx, user, code)) !== 'totp') throw invalidCode();
    const { codes, digests } = newRecoveryCodes(ctx, userId);
    await storeRecoveryCodes(trx, user, digests, 'auth.recovery_codes_regenerated', meta);
    return { recovery_codes: codes };
  });
