import type { EventType, IntegrationEvent } from '@stablepay/contracts';
import type { EventHandler } from '@stablepay/platform';
import { appendAudit, type AuditAction, type AuditEntry } from './audit-log-repo.js';

/**
 * A consumer recording each event of one type in the merchant's audit log, as `entryOf` reads it.
 * Each event is handled once (the platform's inbox), so each action has one entry.
 */
export const auditedAs =
  <T extends EventType>(
    action: AuditAction,
    entryOf: (event: IntegrationEvent<T>) => Omit<AuditEntry, 'action'>,
  ): EventHandler<T> =>
  async (event, trx) => {
    await appendAudit(trx, { action, ...entryOf(event) });
  };
