import type { AuditEntry, AuditLogPage, AuditLogQuery } from '@stablepay/contracts';
import { listMerchantAudit, type AuditRow } from './audit-log-repo.js';
import type { GatewayContext } from '../gateway-context.js';

/** A user's entry is the dashboard's even when it names a key (the key it created or revoked). */
const actorOf = (row: AuditRow): AuditEntry['actor'] =>
  row.user_id ? 'user' : row.api_key_id ? 'api_key' : 'system';

export const auditEntryView = (row: AuditRow): AuditEntry => ({
  id: String(row.id),
  action: row.action,
  occurred_at: new Date(row.occurred_at).toISOString(),
  actor: actorOf(row),
  ip: row.ip,
  user_agent: row.user_agent,
  details: typeof row.details === 'string' ? (JSON.parse(row.details) as AuditEntry['details']) : row.details,
});

/** The merchant's audit log, newest first. */
export const merchantAuditLog = async (
  ctx: GatewayContext,
  merchantId: string,
  query: AuditLogQuery,
): Promise<AuditLogPage> => {
  const { rows, total } = await listMerchantAudit(ctx.db, merchantId, query);
  return { entries: rows.map(auditEntryView), total, limit: query.limit, offset: query.offset };
};
