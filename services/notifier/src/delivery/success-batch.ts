import type { Knex } from 'knex';
import { UNFINISHED, type AttemptResultRow, type ClaimedAttempt } from './attempts-repo.js';
import { ATTEMPTS, DELIVERIES, ENDPOINTS } from '../migrations.js';

interface Pending {
  a: Pick<ClaimedAttempt, 'id' | 'deliveryId' | 'leaseToken' | 'attempt'>;
  r: Omit<AttemptResultRow, 'succeeded'>;
  done: (recorded: boolean) => void;
  fail: (err: unknown) => void;
}

const isDeadlock = (err: unknown) =>
  ['40P01', '40001'].includes((err as { code?: string } | null)?.code ?? '');

/**
 * Successes are the common outcome, so they are written together: every success that arrives
 * within `maxDelayMs` (or until `maxBatch` are waiting) goes into one statement, which ends each
 * delivery succeeded only while its own lease holds, logs the attempt (its one write), and zeroes
 * the endpoint's failure count where it is not zero already. Each caller learns whether its attempt was recorded
 * (false: the lease had passed to another replica). A statement that deadlocks (possible only
 * with an expired lease in play) is run again.
 */
export class SuccessBatch {
  private waiting: Pending[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Knex,
    private readonly maxBatch = 64,
    private readonly maxDelayMs = 5,
  ) {}

  record(a: Pending['a'], r: Pending['r']): Promise<boolean> {
    return new Promise((done, fail) => {
      this.waiting.push({ a, r, done, fail });
      if (this.waiting.length >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxDelayMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting.splice(0);
    if (batch.length === 0) return;
    this.write(batch).then(
      (recorded) => batch.forEach((p) => p.done(recorded.has(p.a.id))),
      (err: unknown) => batch.forEach((p) => p.fail(err)),
    );
  }

  private async write(batch: Pending[]): Promise<Set<string>> {
    const input = JSON.stringify(
      batch.map(({ a, r }) => ({
        id: a.id,
        delivery_id: a.deliveryId,
        lease_token: a.leaseToken,
        attempt: a.attempt,
        response_status: r.responseStatus,
        response_time_ms: r.responseTimeMs,
        error: r.error,
        excerpt: r.excerpt,
      })),
    );
    // The delivery ids again, as an array the planner looks up in the primary key (see UNFINISHED).
    // The update leaves the delivery's times alone, so what it returns are the attempt's own (queued,
    // due, started) for its log row, with no second read or lock of the row.
    const ids = `{${batch.map(({ a }) => a.deliveryId).join(',')}}`;
    for (let tries = 1; ; tries++) {
      try {
        const result = (await this.db.raw(
          `with input as (
             select * from jsonb_to_recordset(?::jsonb) as r(id uuid, delivery_id uuid, lease_token uuid,
               attempt int, response_status int, response_time_ms int, error text, excerpt text)
           ), delivery as (
             update ${DELIVERIES} d
                set status = 'succeeded', attempts = input.attempt, completed_at = now(),
                    next_attempt_id = null, locked_until = null, lease_token = null
               from input
              where d.id = any(?::uuid[]) and d.id = input.delivery_id and d.next_attempt_id = input.id
                and d.lease_token = input.lease_token and ${UNFINISHED}
             returning input.id, d.id as delivery_id, d.endpoint_id, d.event_id, d.scheduled_at, d.queued_at,
                       d.started_at, input.attempt, input.response_status, input.response_time_ms,
                       input.error, input.excerpt
           ), attempt as (
             insert into ${ATTEMPTS} (id, delivery_id, endpoint_id, event_id, attempt, status,
                                      scheduled_at, started_at, finished_at, response_status,
                                      response_time_ms, error, response_body_excerpt, created_at)
             select delivery.id, delivery.delivery_id, delivery.endpoint_id, delivery.event_id,
                    delivery.attempt, 'succeeded', delivery.scheduled_at, delivery.started_at, now(),
                    delivery.response_status, delivery.response_time_ms, delivery.error, delivery.excerpt,
                    delivery.queued_at
               from delivery
             returning id, endpoint_id
           ), endpoint as (
             update ${ENDPOINTS} e set failure_count = 0
              where e.id in (select endpoint_id from attempt) and e.is_active and e.failure_count <> 0
             returning e.id
           )
           select attempt.id, (select count(*) from endpoint) as e
             from attempt`,
          [input, ids],
        )) as { rows: Array<{ id: string }> };
        return new Set(result.rows.map((row) => row.id));
      } catch (err) {
        if (!isDeadlock(err) || tries >= 3) throw err;
      }
    }
  }
}
