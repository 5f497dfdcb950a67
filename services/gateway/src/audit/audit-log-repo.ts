import type { AuditAction } from '@stablepay/contracts';
import type { Knex } from 'knex';
import type { RequestMeta } from '../gateway-context.js';

/** Security events worth keeping as evidence (contracts' AUDIT_ACTIONS). Details never hold a password, key or token. */
export type { AuditAction };

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

/** The user's own action, in its merchant's log, with where the request came from. */
export const auditUserAction = (
  db: Knex | Knex.Transaction,
  action: AuditAction,
  user: { id: string; merchant_id: string },
  meta: RequestMeta,
): Promise<void> => appendAudit(db, { action, userId: user.id, merchantId: user.merchant_id, ...meta });

export interface AuditRow {
  id: string;
  occurred_at: Date;
  action: AuditAction;
  user_id: string | null;
  api_key_id: string | null;
  ip: string | null;
  user_agent: string | null;
  details: Record<string, string | number | boolean | null>;
}

/** One merchant's entries, newest first, with the total for paging. */
export const listMerchantAudit = async (
  db: Knex,
  merchantId: string,
  opts: { action?: AuditAction; limit: number; offset: number },
): Promise<{ rows: AuditRow[]; total: number }> => {
  const base = () => {
    const q = db('audit_log').where({ merchant_id: merchantId });
    return opts.action ? q.andWhere({ action: opts.action }) : q;
  };
  const [rows, [count]] = await Promise.all([
    base()
      .select('id', 'occurred_at', 'action', 'user_id', 'api_key_id', 'ip', 'user_agent', 'details')
      .orderBy('id', 'desc')
      .limit(opts.limit)
      .offset(opts.offset) as Promise<AuditRow[]>,
    base().count<{ count: string | number }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count?.count ?? 0) };
};
