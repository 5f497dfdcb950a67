import type { StackHarness } from '../../e2e/harness.js';

const SERVICE_SCHEMAS = ['gateway', 'payments', 'chain_watcher', 'refunds', 'invoicing', 'notifier'];

/**
 * Tables a timer writes whatever is requested: the chain-watcher's reconciliation records a run
 * (and its wallets) every RECONCILE_INTERVAL_MS, so a run of requests longer than that grows them.
 */
const TIMED_TABLES = new Set(['chain_watcher.reconciliation_runs', 'chain_watcher.reconciliation_wallets']);

/**
 * Rows in every table of the services' schemas (outboxes and inboxes included, timed tables aside):
 * the same counts before and after a run of refused requests show that none of them stored anything.
 */
export const rowCounts = async (h: StackHarness): Promise<Record<string, number>> => {
  const tables = await h.query<{ schema: string; name: string }>(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema = any($1) order by 1, 2`,
    [SERVICE_SCHEMAS],
  );
  if (tables.length === 0) throw new Error('no service tables found');
  const sql = tables
    .filter((t) => !TIMED_TABLES.has(`${t.schema}.${t.name}`))
    .map((t) => `select '${t.schema}.${t.name}' as name, count(*)::int as n from "${t.schema}"."${t.name}"`)
    .join(' union all ');
  const rows = await h.query<{ name: string; n: number }>(sql);
  // The gateway's audit log keeps refused sign-ins as evidence, by design: counted per action.
  const audit = await h.query<{ name: string; n: number }>(
    `select 'gateway.audit_log[' || action || ']' as name, count(*)::int as n from gateway.audit_log group by action`,
  );
  return Object.fromEntries([...rows, ...audit].map((r) => [r.name, r.n]));
};
