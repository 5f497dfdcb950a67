import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '@stablepay/platform';
import type { WebhookEventName } from '@stablepay/contracts';
import { ATTEMPTS, DELIVERIES, EVENTS } from '../migrations.js';

export type DeliveryTrigger = 'event' | 'test' | 'redeliver' | 'replay';
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

/** A delivery created for an event, with its first attempt. */
export interface CreatedDelivery {
  deliveryId: string;
  attemptId: string;
  endpointId: string;
  /** Set when the attempt was created leased to this replica (see `leased` below). */
  leaseToken: string | null;
}

/**
 * One delivery per endpoint for an event, each with its first attempt due after `firstDelayMs`,
 * in one statement. The partial unique index on (endpoint_id, event_id) makes this idempotent
 * whatever the inbox lets through; only deliveries created by this call get an attempt. The
 * attempts of the endpoints in `leased.endpointIds` are created already leased (as a claim would
 * lease them), so that this replica can send them right after commit without claiming them.
 */
export const createEventDeliveries = async (
  trx: Knex.Transaction,
  event: { id: string; merchantId: string },
  endpointIds: string[],
  firstDelayMs: number,
  leased: { endpointIds: string[]; leaseMs: number } = { endpointIds: [], leaseMs: 0 },
): Promise<CreatedDelivery[]> => {
  if (endpointIds.length === 0) return [];
  const token = randomUUID();
  const result = (await trx.raw(
    `with delivery as (
       insert into ${DELIVERIES} (id, endpoint_id, event_id, merchant_id, trigger)
       select gen_random_uuid(), e.endpoint_id::uuid, ?::uuid, ?::uuid, 'event'
         from jsonb_array_elements_text(?::jsonb) as e(endpoint_id)
       on conflict (endpoint_id, event_id) where trigger = 'event' do nothing
       returning id, endpoint_id
     ), attempt as (
       select delivery.*, delivery.endpoint_id in (select l::uuid from jsonb_array_elements_text(?::jsonb) l)
                as leased
         from delivery
     )
     insert into ${ATTEMPTS} (id, delivery_id, endpoint_id, event_id, attempt, scheduled_at,
                              locked_until, lease_token, started_at)
     select gen_random_uuid(), attempt.id, attempt.endpoint_id, ?::uuid, 1,
            now() + (? * interval '1 millisecond'),
            case when attempt.leased then now() + (? * interval '1 millisecond') end,
            case when attempt.leased then ?::uuid end,
            case when attempt.leased then now() end
       from attempt
     returning id, delivery_id, endpoint_id, lease_token`,
    [
      event.id,
      event.merchantId,
      JSON.stringify(endpointIds),
      JSON.stringify(leased.endpointIds),
      event.id,
      firstDelayMs,
      leased.leaseMs,
      token,
    ],
  )) as { rows: Array<{ id: string; delivery_id: string; endpoint_id: string; lease_token: string | null }> };
  return result.rows.map((r) => ({
    deliveryId: r.delivery_id,
    attemptId: r.id,
    endpointId: r.endpoint_id,
    leaseToken: r.lease_token,
  }));
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
