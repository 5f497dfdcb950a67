import type { Knex } from 'knex';

/** Security events worth keeping as evidence. Details never hold a password, key or token. */
export type AuditAction =
  | 'user.registered'
  | 'auth.login_succeeded'
  | 'auth.login_failed'
  | 'auth.logout'
  | 'auth.refresh_reuse_detected'
  | 'api_key.created'
  | 'api_key.revoked';

export interface AuditEntry {
  action: AuditAction;
  userId?: string;
  merchantId?: string;
  apiKeyId?: string;
  ip?: string;
  userAgent?: string;
  requestId?: string;
  details?: Record<string, string | number | boolean | null>;
}

export const appendAudit = async (db: Knex | Knex.Transaction, entry: AuditEntry): Promise<void> => {
  await db('audit_log').insert({
    action: entry.action,
    user_id: entry.userId ?? null,
    merchant_id: entry.merchantId ?? null,
    api_key_id: entry.apiKeyId ?? null,
    ip: entry.ip ?? null,
    user_agent: entry.userAgent?.slice(0, 300) ?? null,
    request_id: entry.requestId ?? null,
    details: JSON.stringify(entry.details ?? {}),
  });
};
