import { ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import { AuditLogQuery, AuditLogResponse } from './audit.js';
import { TokenResponse } from './auth.js';
import {
  ChangePasswordBody,
  DisableTotpBody,
  EnableTotpBody,
  LoginMfaBody,
  MfaStatusResponse,
  RecoveryCodesResponse,
  RegenerateRecoveryCodesBody,
  TotpSetupResponse,
} from './mfa.js';

const security = { service: 'gateway', tags: ['Auth'], extension: true, auth: 'jwt' } as const;

/** Two-factor sign-in (TOTP), password change and the audit log: the dashboard's account security. */
export const securityRoutes = routeTable([
  {
    ...security,
    operationId: 'loginMfa',
    method: 'post',
    path: '/auth/login/mfa',
    auth: 'public',
    summary: 'Second step of a sign-in with two-factor authentication',
    description:
      'Finishes a sign-in that POST /auth/login answered with `mfa_required`: send its `mfa_token` with a six-digit code from the authenticator app or one unused recovery code. Answers the access and refresh tokens. A wrong code counts against the same limit as a wrong password; the `mfa_token` expires after a few minutes.',
    request: { body: LoginMfaBody },
    responses: ok('Tokens', TokenResponse),
  },
  {
    ...security,
    operationId: 'getMfaStatus',
    method: 'get',
    path: '/auth/mfa',
    summary: 'Whether two-factor sign-in is on, and recovery codes left',
    description:
      'Whether two-factor sign-in is on for the signed-in user, and how many recovery codes are left. Nothing secret is returned.',
    responses: ok('Status', MfaStatusResponse),
  },
  {
    ...security,
    operationId: 'setupTotp',
    method: 'post',
    path: '/auth/mfa/totp/setup',
    summary: 'Start enrolling an authenticator app (a new pending secret)',
    description:
      'Starts enrolling an authenticator app: answers a new pending secret (and its otpauth URI for a QR code). Two-factor sign-in stays off until POST /auth/mfa/totp/enable confirms the secret with a code; calling this again replaces the pending secret.',
    responses: ok('Secret and otpauth URL', TotpSetupResponse),
  },
  {
    ...security,
    operationId: 'enableTotp',
    method: 'post',
    path: '/auth/mfa/totp/enable',
    summary: 'Confirm the pending secret with a code: two-factor sign-in is on; recovery codes shown once',
    description:
      'Confirms the pending secret with a code from the app and turns two-factor sign-in on. The answer shows the recovery codes once: they are stored only as digests. 422 when the code is wrong or no secret is pending.',
    request: { body: EnableTotpBody },
    responses: ok('Recovery codes', RecoveryCodesResponse),
  },
  {
    ...security,
    operationId: 'disableTotp',
    method: 'post',
    path: '/auth/mfa/totp/disable',
    summary: 'Turn two-factor sign-in off (password and a code)',
    description:
      'Turns two-factor sign-in off. Needs the password and a current code (or a recovery code), so that a stolen session alone cannot remove the second factor. Written to the audit log.',
    request: { body: DisableTotpBody },
    responses: ok('Status', MfaStatusResponse),
  },
  {
    ...security,
    operationId: 'regenerateRecoveryCodes',
    method: 'post',
    path: '/auth/mfa/recovery-codes',
    summary: 'New recovery codes (the old ones stop working)',
    description:
      'Issues a new set of recovery codes, shown once; every earlier code stops working. Needs a current code. Written to the audit log.',
    request: { body: RegenerateRecoveryCodesBody },
    responses: ok('Recovery codes', RecoveryCodesResponse),
  },
  {
    ...security,
    operationId: 'changePassword',
    method: 'post',
    path: '/auth/password',
    summary: 'Change the password: every session ends, this one gets new tokens',
    description:
      'Changes the password after checking the current one. Every other session of the user ends (their refresh tokens are revoked); this session gets new tokens in the answer. Written to the audit log.',
    request: { body: ChangePasswordBody },
    responses: ok('Tokens', TokenResponse),
  },
  {
    ...security,
    operationId: 'listAuditLog',
    method: 'get',
    path: '/audit-log',
    tags: ['Audit'],
    summary: "The merchant's security-relevant actions, newest first",
    description:
      "The merchant's security-relevant actions (sign-ins, key and endpoint changes, two-factor changes, withdrawal address changes), newest first, each naming the user or API key that acted and where from. Paged with `limit` and `offset`; filter by action.",
    request: { query: AuditLogQuery },
    responses: ok('Entries', AuditLogResponse),
  },
]);
