import type { Knex } from 'knex';
import type { WebhookDeliveryStatus, WebhookEventName } from '@stablepay/contracts';
import type { DeliveryTrigger } from './deliveries-repo.js';
import { ATTEMPTS, DELIVERIES, EVENTS } from '../migrations.js';

export interface AttemptLogRecord {
  id: string;
  deliveryId: string;
  eventId: string;
  eventType: WebhookEventName;
  status: WebhookDeliveryStatus;
  attempt: number;
  responseStatus: number | null;
  responseTimeMs: number | null;
  error: string | null;
  excerpt: string | null;
  body: string;
  isTest: boolean;
  trigger: DeliveryTrigger;
  createdAt: Date;
  scheduledAt: Date;
  finishedAt: Date | null;
}

interface LogRow {
  id: string;
  delivery_id: string;
  event_id: string;
  type: WebhookEventName;
  status: WebhookDeliveryStatus;
  attempt: number;
  response_status: number | null;
  response_time_ms: number | null;
  error: string | null;
  response_body_excerpt: string | null;
  body: string;
  is_test: boolean;
  trigger: DeliveryTrigger;
  created_at: Date;
  scheduled_at: Date;
  finished_at: Date | null;
}

/**
 * The endpoint's attempts, newest first: the logged ones, and the one each pending delivery waits
 * to send (the next to be sent; it is logged under the same id once its outcome is known).
 */
export const listAttemptLogs = async (
  db: Knex,
  endpointId: string,
  limit: number,
): Promise<AttemptLogRecord[]> => {
  const result = (await db.raw(
    `with attempts as (
       (select a.id, a.delivery_id, a.event_id, a.status, a.attempt, a.response_status, a.response_time_ms,
               a.error, a.response_body_excerpt, a.created_at, a.scheduled_at, a.finished_at
          from ${ATTEMPTS} a
         where a.endpoint_id = ?
         order by a.created_at desc, a.id desc
         limit ?)
       union all
       (select d.next_attempt_id, d.id, d.event_id, 'pending', d.attempts + 1, null, null, null, null,
               d.queued_at, d.scheduled_at, null
          from ${DELIVERIES} d
         where d.endpoint_id = ? and d.status = 'pending'
         order by d.queued_at desc, d.next_attempt_id desc
         limit ?)
     )
     select attempts.*, ev.type, ev.body, ev.is_test, d.trigger
       from attempts
       join ${EVENTS} ev on ev.id = attempts.event_id
       join ${DELIVERIES} d on d.id = attempts.delivery_id
      order by attempts.created_at desc, attempts.id desc
      limit ?`,
    [endpointId, limit, endpointId, limit, limit],
  )) as { rows: LogRow[] };
  return result.rows.map((r) => ({
    id: r.id,
    deliveryId: r.delivery_id,
    eventId: r.event_id,
    eventType: r.type,
    status: r.status,
    attempt: r.attempt,
    responseStatus: r.response_status,
    responseTimeMs: r.response_time_ms,
    error: r.error,
    excerpt: r.response_body_excerpt,
    body: r.body,
    isTest: r.is_test,
    trigger: r.trigger,
    createdAt: new Date(r.created_at),
    scheduledAt: new Date(r.scheduled_at),
    finishedAt: r.finished_at ? new Date(r.finished_at) : null,
  }));
};

/**
 * The event a logged (or pending) attempt of this endpoint carried, or undefined when it is not
 * this endpoint's.
 */
export const eventOfAttempt = async (
  db: Knex | Knex.Transaction,
  endpointId: string,
  attemptId: string,
): Promise<string | undefined> => {
  const result = (await db.raw(
    `select event_id from ${ATTEMPTS} where id = ? and endpoint_id = ?
     union all
     select event_id from ${DELIVERIES} where next_attempt_id = ? and endpoint_id = ?
     limit 1`,
    [attemptId, endpointId, attemptId, endpointId],
  )) as { rows: Array<{ event_id: string }> };
  return result.rows[0]?.event_id;
};
