import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';
import type { Knex } from 'knex';
import type { UserRow } from '../accounts/users-repo.js';
import { updateUserSecurity } from '../accounts/users-repo.js';
import { openSealed, peppers } from '../api-keys/pepper-rotation.js';
import { hmacHex } from '../crypto/digests.js';
import { secretBox } from '../crypto/secret-box.js';
import type { GatewayContext } from '../gateway-context.js';
import { useRecoveryCode } from './mfa-repo.js';
import { matchTotp } from './totp.js';

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Seals TOTP secrets under the current pepper. */
export const totpBox = (ctx: GatewayContext) => secretBox(ctx.config.API_KEY_PEPPER, 'totp');

/** TOTP secrets are read under the current pepper or, during a rotation, the previous one. */
export const openTotp = (ctx: GatewayContext, sealed: Buffer): Buffer =>
  openSealed(ctx.config, 'totp', sealed);

export const invalidCode = (field = 'code') =>
  new AppError('unprocessable', 'The code is not valid', [
    fieldDetail(field, 'not a current authenticator code or an unused recovery code', 'invalid_code'),
  ]);

const normaliseRecovery = (code: string): string => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const recoveryDigestWith = (pepper: string, userId: string, code: string): string =>
  hmacHex(pepper, `recovery.v1\0${userId}\0${normaliseRecovery(code)}`);

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
export const newRecoveryCodes = (ctx: GatewayContext, userId: string) => {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return {
    codes,
    digests: codes.map((c) => recoveryDigestWith(ctx.config.API_KEY_PEPPER, userId, c)),
  };
};

export type SecondFactor = 'totp' | 'recovery_code';

/**
 * Checks a code against the user's (locked) row: a 6-digit code against the authenticator secret,
 * anything else as a recovery code, which is used up. Undefined when it is neither.
 */
export const checkSecondFactor = async (
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
