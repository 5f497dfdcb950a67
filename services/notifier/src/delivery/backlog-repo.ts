import type { Knex } from 'knex';
import { ATTEMPTS, ENDPOINTS } from '../migrations.js';

/** What waits to be sent: attempts that are due (scheduled time reached) and not yet finished. */
export interface WebhookBacklog {
  /** due attempts of every active endpoint */
  due: number;
  /** seconds since the oldest of them became due; 0 when none is */
  oldestSeconds: number;
  /** the endpoints with the largest backlogs, largest first (at most the number asked for) */
  endpoints: Array<{ endpointId: string; due: number; oldestSeconds: number }>;
  /** endpoints switched off, by cause: `failures` (consecutive failed deliveries) or `merchant` */
  disabled: { failures: number; merchant: number };
}

/** The reason updateEndpoint records when the merchant switches an endpoint off. */
const BY_MERCHANT = 'disabled by the merchant';

/**
 * One read for a scrape. Attempts in flight count as due until their outcome is written; retries
 * waiting for their scheduled time do not (that wait is the schedule, not a backlog). Endpoints
 * that are disabled have no waiting attempts: disabling fails them at once.
 */
export const readWebhookBacklog = async (db: Knex, topEndpoints: number): Promise<WebhookBacklog> => {
  const perEndpoint = (await db.raw(
    `with due as (
       select a.endpoint_id, count(*)::int as due,
              extract(epoch from now() - min(a.scheduled_at))::float8 as oldest
         from ${ATTEMPTS} a
         join ${ENDPOINTS} e on e.id = a.endpoint_id and e.is_active
        where a.status = 'pending' and a.scheduled_at <= now()
        group by a.endpoint_id
     )
     select endpoint_id, due, oldest,
            sum(due) over ()::int as all_due, max(oldest) over () as all_oldest
       from due order by due desc, oldest desc, endpoint_id limit ?`,
    [topEndpoints],
  )) as {
    rows: Array<{ endpoint_id: string; due: number; oldest: number; all_due: number; all_oldest: number }>;
  };
  const disabled = (await db(ENDPOINTS)
    .where({ is_active: false })
    .select(db.raw(`count(*) filter (where disabled_reason = ?)::int as merchant`, [BY_MERCHANT]))
    .select(
      db.raw(`count(*) filter (where disabled_reason is distinct from ?)::int as failures`, [BY_MERCHANT]),
    )
    .first()) as { merchant: number; failures: number };
  const [top] = perEndpoint.rows;
  return {
    due: Number(top?.all_due ?? 0),
    oldestSeconds: Math.max(0, Number(top?.all_oldest ?? 0)),
    endpoints: perEndpoint.rows.map((r) => ({
      endpointId: r.endpoint_id,
      due: Number(r.due),
      oldestSeconds: Math.max(0, Number(r.oldest)),
    })),
    disabled: { failures: Number(disabled.failures), merchant: Number(disabled.merchant) },
  };
};
