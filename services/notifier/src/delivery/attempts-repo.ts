import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { WebhookEventName } from '@stablepay/contracts';
import type { DeliveryTrigger } from './deliveries-repo.js';
import { ATTEMPTS, DELIVERIES, ENDPOINTS, EVENTS } from '../migrations.js';

/** An attempt this replica holds the lease of, with everything needed to send it. */
export interface ClaimedAttempt {
  id: string;
  deliveryId: string;
  endpointId: string;
  merchantId: string;
  eventId: string;
  eventType: WebhookEventName;
  attempt: number;
  trigger: DeliveryTrigger;
  url: string;
  secretSealed: string;
  body: string;
  isTest: boolean;
  occurredAt: Date;
  leaseToken: string;
}

interface ClaimedRow {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  merchant_id: string;
  event_id: string;
  type: WebhookEventName;
  attempt: number;
  trigger: DeliveryTrigger;
  url: string;
  secret_sealed: string;
  body: string;
  is_test: boolean;
  occurred_at: Date;
  lease_token: string;
}

const toClaimed = (r: ClaimedRow): ClaimedAttempt => ({
  id: r.id,
  deliveryId: r.delivery_id,
  endpointId: r.endpoint_id,
  merchantId: r.merchant_id,
  eventId: r.event_id,
  eventType: r.type,
  attempt: r.attempt,
  trigger: r.trigger,
  url: r.url,
  secretSealed: r.secret_sealed,
  body: r.body,
  isTest: r.is_test,
  occurredAt: new Date(r.occurred_at),
  leaseToken: r.lease_token,
});

export interface ClaimOptions {
  limit: number;
  /** At most this many attempts of one endpoint in flight on this replica... */
  perEndpoint: number;
  /** ...counting the ones already in flight here. */
  inFlight: ReadonlyMap<string, number>;
  leaseMs: number;
}

/**
 * Leases due attempts of active endpoints, fairly: the endpoints with pending deliveries are walked
 * through the queue index (a loose index scan, one probe per endpoint, however long a backlog is),
 * each contributes at most its free per-endpoint slots, oldest first, and the oldest of those win
 * the batch. The rows are locked with SKIP LOCKED so concurrent replicas never take the same one,
 * and leased until `now + leaseMs`: a replica that dies holding one leaves it to be taken again
 * when the lease runs out, as the same attempt (its outcome is logged once, by whoever learns it).
 */
export const claimDueAttempts = async (db: Knex, o: ClaimOptions): Promise<ClaimedAttempt[]> => {
  const busy = [...o.inFlight].map(([endpoint_id, used]) => ({ endpoint_id, used }));
  const token = randomUUID();
  const result = (await db.raw(
    `with recursive endpoints_with_work as (
       (select endpoint_id from ${DELIVERIES} where status = 'pending' order by endpoint_id limit 1)
       union all
       select (select d.endpoint_id from ${DELIVERIES} d
                where d.status = 'pending' and d.endpoint_id > w.endpoint_id
                order by d.endpoint_id limit 1)
         from endpoints_with_work w
        where w.endpoint_id is not null
     ), picked as (
       select due.id from endpoints_with_work w
         join ${ENDPOINTS} e on e.id = w.endpoint_id and e.is_active
         left join jsonb_to_recordset(?::jsonb) as busy(endpoint_id uuid, used int)
           on busy.endpoint_id = w.endpoint_id
        cross join lateral (
          select d.id, d.scheduled_at from ${DELIVERIES} d
           where d.endpoint_id = w.endpoint_id and d.status = 'pending' and d.scheduled_at <= now()
             and (d.locked_until is null or d.locked_until < now())
           order by d.scheduled_at
           limit greatest(? - coalesce(busy.used, 0), 0)) due
        order by due.scheduled_at, due.id
        limit ?
     ), locked as (
       select d.id from ${DELIVERIES} d
        where d.id in (select id from picked) and ${UNFINISHED}
          and (d.locked_until is null or d.locked_until < now())
        for update skip locked
     )
     update ${DELIVERIES} d
        set locked_until = now() + (? * interval '1 millisecond'), lease_token = ?, started_at = now()
       from locked, ${ENDPOINTS} e, ${EVENTS} ev
      where d.id = locked.id and e.id = d.endpoint_id and ev.id = d.event_id
     returning d.next_attempt_id as id, d.id as delivery_id, d.endpoint_id, e.merchant_id, d.event_id,
               ev.type, d.attempts + 1 as attempt, d.trigger, e.url, e.secret_sealed, ev.body, ev.is_test,
               ev.occurred_at, d.lease_token`,
    [JSON.stringify(busy), o.perEndpoint, o.limit, o.leaseMs, token],
  )) as { rows: ClaimedRow[] };
  return result.rows.map(toClaimed);
};

/** What a claim by id reads: the endpoint as it is now (its URL or secret may have changed). */
export interface LeasedById {
  id: string;
  url: string;
  secretSealed: string;
  leaseToken: string;
}

/**
 * `status = 'pending'` for statements that find their deliveries by id. Spelt so that it does not
 * imply the queue index's predicate: with it, the planner may walk the whole pending queue through
 * that index (it counts few pending rows until statistics catch up with a backlog) and probe the
 * ids in a hash, which costs as much as the backlog is long; without it, the ids are looked up in
 * the primary key. The status check constraint allows no other value.
 */
export const UNFINISHED = `d.status <> 'succeeded' and d.status <> 'failed'`;

/**
 * Leases the given attempts where they are still pending, due and unleased, of endpoints still
 * active (another replica may have taken some meanwhile: those are skipped, never waited for).
 * The cheap claim, for attempts this replica queued itself and knows the rest of: primary-key
 * lookups of their deliveries instead of the walk over the queue index, and only the endpoint
 * joined. An attempt counts by its own id: a delivery that has moved on to a later attempt
 * meanwhile is left to the full claim.
 */
export const claimAttemptsById = async (
  db: Knex,
  attempts: Array<Pick<ClaimedAttempt, 'id' | 'deliveryId'>>,
  leaseMs: number,
): Promise<LeasedById[]> => {
  if (attempts.length === 0) return [];
  const result = (await db.raw(
    `with locked as (
       select d.id from ${DELIVERIES} d
        where d.id = any(?::uuid[]) and d.next_attempt_id = any(?::uuid[]) and ${UNFINISHED}
          and d.scheduled_at <= now() and (d.locked_until is null or d.locked_until < now())
        for update skip locked
     )
     update ${DELIVERIES} d
        set locked_until = now() + (? * interval '1 millisecond'), lease_token = ?, started_at = now()
       from locked, ${ENDPOINTS} e
      where d.id = locked.id and e.id = d.endpoint_id and e.is_active
     returning d.next_attempt_id as id, e.url, e.secret_sealed, d.lease_token`,
    [
      `{${attempts.map((a) => a.deliveryId).join(',')}}`,
      `{${attempts.map((a) => a.id).join(',')}}`,
      leaseMs,
      randomUUID(),
    ],
  )) as { rows: Array<{ id: string; url: string; secret_sealed: string; lease_token: string }> };
  return result.rows.map((r) => ({
    id: r.id,
    url: r.url,
    secretSealed: r.secret_sealed,
    leaseToken: r.lease_token,
  }));
};

export interface AttemptResultRow {
  succeeded: boolean;
  responseStatus: number | null;
  responseTimeMs: number;
  error: string | null;
  excerpt: string | null;
}

/**
 * A failed attempt, in one statement: logged, and its delivery either waits for the next attempt
 * (`retryInMs`) or ends failed. Only while this replica still holds the lease: if the lease ran
 * out and another replica took the attempt over, the late result is dropped (false) and theirs
 * counts.
 */
export const recordFailedAttempt = async (
  trx: Knex.Transaction,
  a: Pick<ClaimedAttempt, 'id' | 'deliveryId' | 'leaseToken' | 'attempt'>,
  r: Omit<AttemptResultRow, 'succeeded'>,
  retryInMs: number | undefined,
): Promise<boolean> => {
  const retry = retryInMs ?? null;
  const result = (await trx.raw(
    `with leased as (
       select d.id, d.endpoint_id, d.event_id, d.scheduled_at, d.queued_at, d.started_at
         from ${DELIVERIES} d
        where d.id = ? and d.next_attempt_id = ? and d.lease_token = ? and ${UNFINISHED}
          for update
     ), delivery as (
       update ${DELIVERIES} d
          set attempts = ?, locked_until = null, lease_token = null,
              status = case when ?::bigint is null then 'failed' else d.status end,
              completed_at = case when ?::bigint is null then now() end,
              next_attempt_id = case when ?::bigint is null then null else gen_random_uuid() end,
              scheduled_at = coalesce(now() + (?::bigint * interval '1 millisecond'), d.scheduled_at),
              queued_at = case when ?::bigint is null then d.queued_at else now() end
         from leased where d.id = leased.id
       returning d.id
     )
     insert into ${ATTEMPTS} (id, delivery_id, endpoint_id, event_id, attempt, status, scheduled_at,
                              started_at, finished_at, response_status, response_time_ms, error,
                              response_body_excerpt, created_at)
     select ?, leased.id, leased.endpoint_id, leased.event_id, ?, 'failed', leased.scheduled_at,
            leased.started_at, now(), ?, ?, ?, ?, leased.queued_at
       from leased where exists (select 1 from delivery)
     returning id`,
    [
      a.deliveryId,
      a.id,
      a.leaseToken,
      a.attempt,
      retry,
      retry,
      retry,
      retry,
      retry,
      a.id,
      a.attempt,
      r.responseStatus,
      r.responseTimeMs,
      r.error,
      r.excerpt,
    ],
  )) as { rows: unknown[] };
  return result.rows.length === 1;
};

/**
 * When an endpoint is disabled, what waits for it fails at once with the reason, logged as a
 * failed attempt (the merchant can replay after re-enabling). Attempts in flight are left to
 * finish and record their own outcome.
 */
export const failPendingAttempts = async (
  trx: Knex.Transaction,
  endpointId: string,
  reason: string,
): Promise<number> => {
  const result = (await trx.raw(
    `with waiting as (
       select d.id, d.next_attempt_id, d.event_id, d.attempts + 1 as attempt, d.scheduled_at, d.queued_at
         from ${DELIVERIES} d
        where d.endpoint_id = ? and d.status = 'pending' and (d.locked_until is null or d.locked_until < now())
          for update
     ), failed as (
       update ${DELIVERIES} d
          set status = 'failed', attempts = waiting.attempt, completed_at = now(), next_attempt_id = null,
              locked_until = null, lease_token = null
         from waiting
        where d.id = waiting.id
       returning d.id
     )
     insert into ${ATTEMPTS} (id, delivery_id, endpoint_id, event_id, attempt, status, scheduled_at,
                              finished_at, error, created_at)
     select waiting.next_attempt_id, waiting.id, ?, waiting.event_id, waiting.attempt, 'failed',
            waiting.scheduled_at, now(), ?, waiting.queued_at
       from waiting join failed on failed.id = waiting.id
     returning id`,
    [endpointId, endpointId, reason],
  )) as { rows: unknown[] };
  return result.rows.length;
};

/** Hands back attempts that were leased but never started (shutdown), so no one waits for the lease. */
export const releaseLeases = async (
  db: Knex,
  attempts: Array<Pick<ClaimedAttempt, 'deliveryId' | 'leaseToken'>>,
) => {
  for (const a of attempts) {
    await db(DELIVERIES)
      .where({ id: a.deliveryId, lease_token: a.leaseToken, status: 'pending' })
      .update({ locked_until: null, lease_token: null, started_at: null });
  }
};
