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

/** The endpoint's attempts, newest first (pending ones included: they are the next to be sent). */
export const listAttemptLogs = async (
  db: Knex,
  endpointId: string,
  limit: number,
): Promise<AttemptLogRecord[]> => {
  const rows = (await db(`${ATTEMPTS} as a`)
    .join(`${EVENTS} as ev`, 'ev.id', 'a.event_id')
    .join(`${DELIVERIES} as d`, 'd.id', 'a.delivery_id')
    .where('a.endpoint_id', endpointId)
    .orderBy([
      { column: 'a.created_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ])
    .limit(limit)
    .select(
      'a.id',
      'a.delivery_id',
      'a.event_id',
      'ev.type',
      'a.status',
      'a.attempt',
      'a.response_status',
      'a.response_time_ms',
      'a.error',
      'a.response_body_excerpt',
      'ev.body',
      'ev.is_test',
      'd.trigger',
      'a.created_at',
      'a.scheduled_at',
      'a.finished_at',
    )) as LogRow[];
  return rows.map((r) => ({
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

/** The event a logged attempt of this endpoint carried, or undefined when it is not this endpoint's. */
export const eventOfAttempt = async (
  db: Knex | Knex.Transaction,
  endpointId: string,
  attemptId: string,
): Promise<string | undefined> => {
  const row = (await db(ATTEMPTS).where({ id: attemptId, endpoint_id: endpointId }).first('event_id')) as
    { event_id: string } | undefined;
  return row?.event_id;
};
