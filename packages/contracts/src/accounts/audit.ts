import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { listPage, pageParams } from '../shared/paging.js';
import { IsoTimestamp } from '../shared/scalars.js';

export const AUDIT_ACTIONS = [
  'user.registered',
  'user.email_confirmation_sent',
  'user.email_confirmed',
  'auth.registration_attempted',
  'auth.login_succeeded',
  'auth.login_failed',
  'auth.mfa_failed',
  'auth.logout',
  'auth.refresh_reuse_detected',
  'auth.password_changed',
  'auth.totp_enabled',
  'auth.totp_disabled',
  'auth.recovery_codes_regenerated',
  'auth.recovery_code_used',
  'api_key.created',
  'api_key.revoked',
  'refund.created',
  'refund.cancelled',
  'withdrawal.requested',
  'webhook_endpoint.created',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_regenerated',
  'withdrawal_address.added',
  'withdrawal_address.removed',
  'auth.step_up_failed',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/** GET /audit-log: the merchant's security-relevant actions, newest first. */
export const AuditLogQuery = z.object({
  action: AuditAction.optional(),
  ...pageParams({ max: 100, default: 50 }),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

export const AuditEntry = z.object({
  id: z.string(),
  action: AuditAction,
  occurred_at: IsoTimestamp,
  /** `user` (dashboard), `api_key`, or `system` (recorded from another service's event) */
  actor: z.enum(['user', 'api_key', 'system']),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** what the action was about (never a password, key, secret or token) */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditLogPage = listPage('entries', AuditEntry);
export type AuditLogPage = z.infer<typeof AuditLogPage>;
export const AuditLogResponse = successEnvelope(AuditLogPage);
