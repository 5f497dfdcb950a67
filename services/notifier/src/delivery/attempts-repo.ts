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
 * Leases due attempts of active endpoints, fairly: the endpoints with pending attempts are walked
 * through the queue index (a loose index scan, one probe per endpoint, however long a backlog is),
 * each contributes at most its free per-endpoint slots, oldest first, and the oldest of those win
 * the batch. The rows are locked with SKIP LOCKED so concurrent replicas never take the same one,
 * and leased until `now + leaseMs`: a replica that dies holding one leaves it to be taken again
 * when the lease runs out.
 */
export const claimDueAttempts = async (db: Knex, o: ClaimOptions): Promise<ClaimedAttempt[]> => {
  const busy = [...o.inFlight].map(([endpoint_id, used]) => ({ endpoint_id, used }));
  const token = randomUUID();
  const result = (await db.raw(
    `with recursive endpoints_with_work as (
       (select endpoint_id from ${ATTEMPTS} where status = 'pending' order by endpoint_id limit 1)
       union all
       select (select a.endpoint_id from ${ATTEMPTS} a
                where a.status = 'pending' and a.endpoint_id > w.endpoint_id
                order by a.endpoint_id limit 1)
         from endpoints_with_work w
        where w.endpoint_id is not null
     ), picked as (
       select due.id from endpoints_with_work w
         join ${ENDPOINTS} e on e.id = w.endpoint_id and e.is_active
         left join jsonb_to_recordset(?::jsonb) as busy(endpoint_id uuid, used int)
           on busy.endpoint_id = w.endpoint_id
        cross join lateral (
          select a.id, a.scheduled_at from ${ATTEMPTS} a
           where a.endpoint_id = w.endpoint_id and a.status = 'pending' and a.scheduled_at <= now()
             and (a.locked_until is null or a.locked_until < now())
           order by a.scheduled_at
           limit greatest(? - coalesce(busy.used, 0), 0)) due
        order by due.scheduled_at, due.id
        limit ?
     ), locked as (
       select a.id from ${ATTEMPTS} a
        where a.id in (select id from picked) and ${UNFINISHED}
          and (a.locked_until is null or a.locked_until < now())
        for update skip locked
     )
     update ${ATTEMPTS} a
        set locked_until = now() + (? * interval '1 millisecond'), lease_token = ?, started_at = now()
       from locked, ${ENDPOINTS} e, ${EVENTS} ev, ${DELIVERIES} d
      where a.id = locked.id and e.id = a.endpoint_id and ev.id = a.event_id and d.id = a.delivery_id
     returning a.id, a.delivery_id, a.endpoint_id, e.merchant_id, a.event_id, ev.type, a.attempt,
               d.trigger, e.url, e.secret_sealed, ev.body, ev.is_test, ev.occurred_at, a.lease_token`,
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
 * `status = 'pending'` for statements that find their attempts by id. Spelt so that it does not
 * imply the queue index's predicate: with it, the planner may walk the whole pending queue through
 * that index (it counts few pending rows until statistics catch up with a backlog) and probe the
 * ids in a hash, which costs as much as the backlog is long; without it, the ids are looked up in
 * the primary key. The status check constraint allows no other value.
 */
export const UNFINISHED = `a.status <> 'succeeded' and a.status <> 'failed'`;

/**
 * Leases the given attempts where they are still pending, due and unleased, of endpoints still
 * active (another replica may have taken some meanwhile: those are skipped, never waited for).
 * The cheap claim, for attempts this replica queued itself and knows the rest of: primary-key
 * lookups instead of the walk over the queue index, and only the endpoint joined.
 */
export const claimAttemptsById = async (db: Knex, ids: string[], leaseMs: number): Promise<LeasedById[]> => {
  if (ids.length === 0) return [];
  const result = (await db.raw(
    `with locked as (
       select a.id from ${ATTEMPTS} a
        where a.id = any(?::uuid[]) and ${UNFINISHED}
          and a.scheduled_at <= now() and (a.locked_until is null or a.locked_until < now())
        for update skip locked
     )
     update ${ATTEMPTS} a
        set locked_until = now() + (? * interval '1 millisecond'), lease_token = ?, started_at = now()
       from locked, ${ENDPOINTS} e
      where a.id = locked.id and e.id = a.endpoint_id and e.is_active
     returning a.id, e.url, e.secret_sealed, a.lease_token`,
    [`{${ids.join(',')}}`, leaseMs, randomUUID()],
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
 * Writes the outcome only while this replica still holds the lease: if the lease ran out and
 * another replica took the attempt over, the late result is dropped (false) and theirs counts.
 */
export const completeAttempt = async (
  trx: Knex.Transaction,
  a: Pick<ClaimedAttempt, 'id' | 'leaseToken'>,
  r: AttemptResultRow,
): Promise<boolean> =>
  (await trx(ATTEMPTS)
    .where({ id: a.id, lease_token: a.leaseToken, status: 'pending' })
    .update({
      status: r.succeeded ? 'succeeded' : 'failed',
      finished_at: trx.fn.now(),
      response_status: r.responseStatus,
      response_time_ms: r.responseTimeMs,
      error: r.error,
      response_body_excerpt: r.excerpt,
      locked_until: null,
      lease_token: null,
    })) === 1;

export const scheduleNextAttempt = async (
  trx: Knex.Transaction,
  a: Pick<ClaimedAttempt, 'deliveryId' | 'endpointId' | 'eventId' | 'attempt'>,
  delayMs: number,
): Promise<void> => {
  await trx(ATTEMPTS).insert({
    id: randomUUID(),
    delivery_id: a.deliveryId,
    endpoint_id: a.endpointId,
    event_id: a.eventId,
    attempt: a.attempt + 1,
    scheduled_at: trx.raw(`now() + (? * interval '1 millisecond')`, [delayMs]),
  });
  await trx(DELIVERIES).where({ id: a.deliveryId }).update({ attempts: a.attempt });
};

export const finishDelivery = async (
  trx: Knex.Transaction,
  deliveryId: string,
  status: 'succeeded' | 'failed',
  attempts: number,
): Promise<void> => {
  await trx(DELIVERIES)
    .where({ id: deliveryId, status: 'pending' })
    .update({ status, attempts, completed_at: trx.fn.now() });
};

/**
 * When an endpoint is disabled, what waits for it fails at once with the reason (the merchant can
 * replay after re-enabling). Attempts in flight are left to finish and record their own outcome.
 */
export const failPendingAttempts = async (
  trx: Knex.Transaction,
  endpointId: string,
  reason: string,
): Promise<number> => {
  const result = (await trx.raw(
    `with failed as (
       update ${ATTEMPTS}
          set status = 'failed', finished_at = now(), error = ?, locked_until = null, lease_token = null
        where endpoint_id = ? and status = 'pending' and (locked_until is null or locked_until < now())
       returning delivery_id, attempt
     )
     update ${DELIVERIES} d
        set status = 'failed', attempts = failed.attempt, completed_at = now()
       from failed
      where d.id = failed.delivery_id and d.status = 'pending'
     returning d.id`,
    [reason, endpointId],
  )) as { rows: unknown[] };
  return result.rows.length;
};

/** Hands back attempts that were leased but never started (shutdown), so no one waits for the lease. */
export const releaseLeases = async (db: Knex, attempts: Array<Pick<ClaimedAttempt, 'id' | 'leaseToken'>>) => {
  for (const a of attempts) {
    await db(ATTEMPTS)
      .where({ id: a.id, lease_token: a.leaseToken, status: 'pending' })
      .update({ locked_until: null, lease_token: null, started_at: null });
  }
};
