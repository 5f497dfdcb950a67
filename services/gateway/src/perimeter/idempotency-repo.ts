import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export interface IdempotencyRow {
  id: string;
  lookup_digest: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_content_type: string | null;
  response_body: Buffer | null;
}

export type ClaimResult = { claimed: true; id: string } | { claimed: false; existing: IdempotencyRow };

export interface ClaimInput {
  lookupDigest: string;
  method: string;
  path: string;
  requestHash: string;
  ttlHours: number;
  /** An in-progress row older than this was left by a crashed process and may be taken over. */
  staleAfterMs: number;
}

/**
 * Inserts the in-progress row; the unique digest decides which of several concurrent requests runs.
 * No check-then-insert: the loser reads the winner's row. An expired or abandoned row is removed
 * (conditionally, so two takers cannot both remove a fresh one) and the insert retried once.
 */
export const claimIdempotency = async (db: Knex, input: ClaimInput): Promise<ClaimResult> => {
  for (let attempt = 0; attempt < 2; attempt++) {
    const id = randomUUID();
    const inserted = await db('idempotency_records')
      .insert({
        id,
        lookup_digest: input.lookupDigest,
        method: input.method,
        path: input.path.slice(0, 500),
        request_hash: input.requestHash,
        state: 'in_progress',
        expires_at: db.raw(`now() + (? * interval '1 hour')`, [input.ttlHours]),
      })
      .onConflict('lookup_digest')
      .ignore()
      .returning('id');
    if (inserted.length === 1) return { claimed: true, id };
    const removed = await db('idempotency_records')
      .where({ lookup_digest: input.lookupDigest })
      .where((q) =>
        q
          .where('expires_at', '<', db.fn.now())
          .orWhere((s) =>
            s
              .where({ state: 'in_progress' })
              .where(
                'created_at',
                '<',
                db.raw(`now() - (? * interval '1 millisecond')`, [input.staleAfterMs]),
              ),
          ),
      )
      .delete();
    if (removed > 0) continue;
    const existing = await db<IdempotencyRow>('idempotency_records')
      .where({ lookup_digest: input.lookupDigest })
      .first();
    if (existing) return { claimed: false, existing };
  }
  throw new Error('could not claim idempotency record');
};

/** Keeps the answer; false when the claim is no longer this request's (released or taken over). */
export const completeIdempotency = async (
  db: Knex | Knex.Transaction,
  id: string,
  response: { status: number; contentType: string | null; sealedBody: Buffer },
): Promise<boolean> => {
  const n = await db('idempotency_records').where({ id, state: 'in_progress' }).update({
    state: 'completed',
    response_status: response.status,
    response_content_type: response.contentType,
    response_body: response.sealedBody,
    completed_at: db.fn.now(),
  });
  return n === 1;
};

/** Forgets an unfinished request (5xx, aborted, too large to keep) so the client may retry it. */
export const releaseIdempotency = async (db: Knex, id: string): Promise<void> => {
  await db('idempotency_records').where({ id, state: 'in_progress' }).delete();
};

export const pruneExpiredIdempotency = async (db: Knex): Promise<number> =>
  db('idempotency_records').where('expires_at', '<', db.fn.now()).delete();
