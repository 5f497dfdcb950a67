import type { Knex } from 'knex';
import { UNFINISHED, type AttemptResultRow, type ClaimedAttempt } from './attempts-repo.js';
import { ATTEMPTS, DELIVERIES, ENDPOINTS } from '../migrations.js';

interface Pending {
  a: Pick<ClaimedAttempt, 'id' | 'leaseToken' | 'attempt'>;
  r: Omit<AttemptResultRow, 'succeeded'>;
  done: (recorded: boolean) => void;
  fail: (err: unknown) => void;
}

const isDeadlock = (err: unknown) =>
  ['40P01', '40001'].includes((err as { code?: string } | null)?.code ?? '');

/**
 * Successes are the common outcome, so they are written together: every success that arrives
 * within `maxDelayMs` (or until `maxBatch` are waiting) goes into one statement, which marks each
 * attempt succeeded only while its own lease holds, ends its delivery, and zeroes the endpoint's
 * failure count where it is not zero already. Each caller learns whether its attempt was recorded
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
        lease_token: a.leaseToken,
        attempt: a.attempt,
        response_status: r.responseStatus,
        response_time_ms: r.responseTimeMs,
        error: r.error,
        excerpt: r.excerpt,
      })),
    );
    // The ids again, as an array the planner looks up in the primary key (see UNFINISHED).
    const ids = `{${batch.map(({ a }) => a.id).join(',')}}`;
    for (let tries = 1; ; tries++) {
      try {
        const result = (await this.db.raw(
          `with input as (
             select * from jsonb_to_recordset(?::jsonb) as r(id uuid, lease_token uuid, attempt int,
               response_status int, response_time_ms int, error text, excerpt text)
           ), attempt as (
             update ${ATTEMPTS} a
                set status = 'succeeded', finished_at = now(), response_status = input.response_status,
                    response_time_ms = input.response_time_ms, error = input.error,
                    response_body_excerpt = input.excerpt, locked_until = null, lease_token = null
               from input
              where a.id = any(?::uuid[]) and a.id = input.id and a.lease_token = input.lease_token
                and ${UNFINISHED}
             returning a.id, a.delivery_id, a.endpoint_id, input.attempt
           ), delivery as (
             update ${DELIVERIES} d set status = 'succeeded', attempts = attempt.attempt, completed_at = now()
               from attempt where d.id = attempt.delivery_id and d.status = 'pending'
             returning d.id
           ), endpoint as (
             update ${ENDPOINTS} e set failure_count = 0
              where e.id in (select endpoint_id from attempt) and e.is_active and e.failure_count <> 0
             returning e.id
           )
           select attempt.id, (select count(*) from delivery) as d, (select count(*) from endpoint) as e
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
