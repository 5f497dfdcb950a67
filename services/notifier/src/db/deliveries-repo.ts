import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { WebhookEventName } from '@stablepay/contracts';
import { ATTEMPTS, DELIVERIES, EVENTS } from './migrations.js';

export type DeliveryTrigger = 'event' | 'test' | 'redeliver' | 'replay';
type Db = Knex | Knex.Transaction;

export interface StoredEvent {
  id: string;
  merchantId: string;
  type: WebhookEventName;
  body: string;
  occurredAt: string;
  isTest: boolean;
}

/** Stores a deliverable event once; a second copy of the same event id changes nothing. */
export const insertEvent = async (db: Db, e: StoredEvent): Promise<void> => {
  await db(EVENTS)
    .insert({
      id: e.id,
      merchant_id: e.merchantId,
      type: e.type,
      body: e.body,
      occurred_at: e.occurredAt,
      is_test: e.isTest,
    })
    .onConflict('id')
    .ignore();
};

/**
 * One delivery per endpoint for an event, each with its first attempt due now. The partial unique
 * index on (endpoint_id, event_id) makes this idempotent whatever the inbox lets through; only
 * deliveries created by this call get an attempt. Returns how many were created.
 */
export const createEventDeliveries = async (
  trx: Knex.Transaction,
  event: { id: string; merchantId: string },
  endpointIds: string[],
  firstDelayMs: number,
): Promise<number> => {
  if (endpointIds.length === 0) return 0;
  const rows = endpointIds.map((endpointId) => [randomUUID(), endpointId, event.id, event.merchantId]);
  const created = (await trx.raw(
    `insert into ${DELIVERIES} (id, endpoint_id, event_id, merchant_id, trigger)
     select d.id::uuid, d.endpoint_id::uuid, d.event_id::uuid, d.merchant_id::uuid, 'event'
       from jsonb_to_recordset(?::jsonb) as d(id text, endpoint_id text, event_id text, merchant_id text)
     on conflict (endpoint_id, event_id) where trigger = 'event' do nothing
     returning id, endpoint_id`,
    [
      JSON.stringify(
        rows.map(([id, endpoint_id, event_id, merchant_id]) => ({ id, endpoint_id, event_id, merchant_id })),
      ),
    ],
  )) as { rows: Array<{ id: string; endpoint_id: string }> };
  if (created.rows.length === 0) return 0;
  await trx(ATTEMPTS).insert(
    created.rows.map((d) => ({
      id: randomUUID(),
      delivery_id: d.id,
      endpoint_id: d.endpoint_id,
      event_id: event.id,
      attempt: 1,
      scheduled_at: trx.raw(`now() + (? * interval '1 millisecond')`, [firstDelayMs]),
    })),
  );
  return created.rows.length;
};

/** A new chain for one event and endpoint (redeliver): returns the id of its first, pending attempt. */
export const createDelivery = async (
  trx: Knex.Transaction,
  d: { endpointId: string; eventId: string; merchantId: string; trigger: DeliveryTrigger },
): Promise<{ deliveryId: string; attemptId: string }> => {
  const deliveryId = randomUUID();
  const attemptId = randomUUID();
  await trx(DELIVERIES).insert({
    id: deliveryId,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    merchant_id: d.merchantId,
    trigger: d.trigger,
  });
  await trx(ATTEMPTS).insert({
    id: attemptId,
    delivery_id: deliveryId,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    attempt: 1,
  });
  return { deliveryId, attemptId };
};

/**
 * Replay: every event of the merchant since `since`, of the given types, that this endpoint has not
 * received and is not about to receive (no succeeded or pending delivery), oldest first, at most
 * `max`. One statement, so it is cheap even at the limit.
 */
export const queueReplay = async (
  trx: Knex.Transaction,
  r: { endpointId: string; merchantId: string; since: string; types: WebhookEventName[]; max: number },
): Promise<number> => {
  const result = (await trx.raw(
    `with picked as (
       select ev.id from ${EVENTS} ev
        where ev.merchant_id = ? and ev.occurred_at >= ? and not ev.is_test
          and ev.type in (select jsonb_array_elements_text(?::jsonb))
          and not exists (
            select 1 from ${DELIVERIES} d
             where d.endpoint_id = ? and d.event_id = ev.id and d.status in ('succeeded', 'pending'))
        order by ev.occurred_at, ev.id
        limit ?
     ), deliveries as (
       insert into ${DELIVERIES} (id, endpoint_id, event_id, merchant_id, trigger)
       select gen_random_uuid(), ?, picked.id, ?, 'replay' from picked
       returning id, event_id
     )
     insert into ${ATTEMPTS} (id, delivery_id, endpoint_id, event_id, attempt)
     select gen_random_uuid(), deliveries.id, ?, deliveries.event_id, 1 from deliveries
     returning id`,
    [
      r.merchantId,
      r.since,
      JSON.stringify(r.types),
      r.endpointId,
      r.max,
      r.endpointId,
      r.merchantId,
      r.endpointId,
    ],
  )) as { rows: unknown[] };
  return result.rows.length;
};

/** A test delivery is sent by the request itself; its one attempt is written with the outcome. */
export const insertTestDelivery = async (
  trx: Knex.Transaction,
  t: {
    attemptId: string;
    endpointId: string;
    eventId: string;
    merchantId: string;
    succeeded: boolean;
    startedAt: Date;
    responseStatus: number | null;
    responseTimeMs: number;
    error: string | null;
    excerpt: string | null;
  },
): Promise<void> => {
  const deliveryId = randomUUID();
  const status = t.succeeded ? 'succeeded' : 'failed';
  await trx(DELIVERIES).insert({
    id: deliveryId,
    endpoint_id: t.endpointId,
    event_id: t.eventId,
    merchant_id: t.merchantId,
    trigger: 'test',
    status,
    attempts: 1,
    completed_at: trx.fn.now(),
  });
  await trx(ATTEMPTS).insert({
    id: t.attemptId,
    delivery_id: deliveryId,
    endpoint_id: t.endpointId,
    event_id: t.eventId,
    attempt: 1,
    status,
    scheduled_at: t.startedAt,
    started_at: t.startedAt,
    finished_at: trx.fn.now(),
    response_status: t.responseStatus,
    response_time_ms: t.responseTimeMs,
    error: t.error,
    response_body_excerpt: t.excerpt,
    created_at: t.startedAt,
  });
};
