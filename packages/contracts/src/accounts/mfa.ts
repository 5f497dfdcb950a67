import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { IsoTimestamp } from '../shared/scalars.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, TokenPair } from './auth.js';

/** A code from the authenticator app (RFC 6238: 6 digits, 30-second steps). */
export const TotpCode = z.string().regex(/^\d{6}$/, 'Must be the 6-digit code of your authenticator app');
/** A recovery code as shown (two groups of five letters or digits joined by a dash); case and dashes are ignored. */
export const RECOVERY_CODE_COUNT = 10;
const SecondFactorCode = z
  .string()
  .trim()
  .min(6)
  .max(32)
  .regex(/^[A-Za-z0-9-\s]+$/, 'Must be a 6-digit code or a recovery code');

/**
 * POST /auth/login answers this instead of a token pair when the account has two-factor sign-in:
 * the password was right, and `mfa_token` (single use, short-lived) goes to POST /auth/login/mfa
 * with a code.
 */
export const MfaChallenge = z.object({
  mfa_required: z.literal(true),
  mfa_token: z.string(),
  /** seconds the challenge stays valid */
  expires_in: z.number().int().positive(),
});
export type MfaChallenge = z.infer<typeof MfaChallenge>;
export const LoginResult = z.union([TokenPair, MfaChallenge]);
export const LoginResponse = successEnvelope(LoginResult);

/** POST /auth/login/mfa: the second step, with an authenticator code or an unused recovery code. */
export const LoginMfaBody = z.object({
  mfa_token: z.string().min(1).max(512),
  code: SecondFactorCode,
});
export type LoginMfaBody = z.infer<typeof LoginMfaBody>;

/** GET /auth/mfa */
export const MfaStatus = z.object({
  totp_enabled: z.boolean(),
  enabled_at: IsoTimestamp.nullable(),
  recovery_codes_left: z.number().int().nonnegative(),
});
export type MfaStatus = z.infer<typeof MfaStatus>;
export const MfaStatusResponse = successEnvelope(MfaStatus);

/** POST /auth/mfa/totp/setup: a new secret, pending until confirmed with a code. */
export const TotpSetup = z.object({
  /** base32, for typing into an app that cannot scan */
  secret: z.string(),
  /** `otpauth://totp/...`, for the QR code */
  otpauth_url: z.string(),
});
export type TotpSetup = z.infer<typeof TotpSetup>;
export const TotpSetupResponse = successEnvelope(TotpSetup);

/** POST /auth/mfa/totp/enable: a code from the app proves it holds the pending secret. */
export const EnableTotpBody = z.object({ code: TotpCode });

/** Recovery codes, shown once: each signs in once in place of an authenticator code. */
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()).length(RECOVERY_CODE_COUNT) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;
export const RecoveryCodesResponse = successEnvelope(RecoveryCodes);

/** POST /auth/mfa/totp/disable: the password and a current code (or a recovery code). */
export const DisableTotpBody = z.object({
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  code: SecondFactorCode,
});
export type DisableTotpBody = z.infer<typeof DisableTotpBody>;

/** POST /auth/mfa/recovery-codes: new codes (the old ones stop working), with a current code. */
export const RegenerateRecoveryCodesBody = z.object({ code: TotpCode });

/**
 * POST /auth/password: every session of the user ends; the answer is a fresh token pair for the
 * session that changed it.
 */
export const ChangePasswordBody = z.object({
  current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  new_password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
