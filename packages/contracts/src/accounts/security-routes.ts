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
    request: { body: LoginMfaBody },
    responses: ok('Tokens', TokenResponse),
  },
  {
    ...security,
    operationId: 'getMfaStatus',
    method: 'get',
    path: '/auth/mfa',
    summary: 'Whether two-factor sign-in is on, and recovery codes left',
    responses: ok('Status', MfaStatusResponse),
  },
  {
    ...security,
    operationId: 'setupTotp',
    method: 'post',
    path: '/auth/mfa/totp/setup',
    summary: 'Start enrolling an authenticator app (a new pending secret)',
    responses: ok('Secret and otpauth URL', TotpSetupResponse),
  },
  {
    ...security,
    operationId: 'enableTotp',
    method: 'post',
    path: '/auth/mfa/totp/enable',
    summary: 'Confirm the pending secret with a code: two-factor sign-in is on; recovery codes shown once',
    request: { body: EnableTotpBody },
    responses: ok('Recovery codes', RecoveryCodesResponse),
  },
  {
    ...security,
    operationId: 'disableTotp',
    method: 'post',
    path: '/auth/mfa/totp/disable',
    summary: 'Turn two-factor sign-in off (password and a code)',
    request: { body: DisableTotpBody },
    responses: ok('Status', MfaStatusResponse),
  },
  {
    ...security,
    operationId: 'regenerateRecoveryCodes',
    method: 'post',
    path: '/auth/mfa/recovery-codes',
    summary: 'New recovery codes (the old ones stop working)',
    request: { body: RegenerateRecoveryCodesBody },
    responses: ok('Recovery codes', RecoveryCodesResponse),
  },
  {
    ...security,
    operationId: 'changePassword',
    method: 'post',
    path: '/auth/password',
    summary: 'Change the password: every session ends, this one gets new tokens',
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
    request: { query: AuditLogQuery },
    responses: ok('Entries', AuditLogResponse),
  },
]);
