import type { Knex } from 'knex';
import type { Currency } from '@stablepay/contracts';
import { type RequestKey, type Db } from '@stablepay/platform';
import type { CheckoutSessionRecord } from '../records.js';
import { CHECKOUT_SESSIONS } from '../db/tables.js';
import { toSession, type Row } from '../db/rows.js';

export interface NewSessionRow {
  id: string;
  merchant_id: string;
  amount: string | null;
  currency: Currency;
  return_url: string;
  cancel_url: string | null;
  metadata: Record<string, string>;
  expiresInSeconds: number;
}

/** Creation and expiry times both come from the database clock, the one the sweeper compares with. */
export const insertSession = async (
  db: Db,
  s: NewSessionRow,
  requestKey?: RequestKey,
): Promise<CheckoutSessionRecord> => {
  const { expiresInSeconds, metadata, ...columns } = s;
  const rows = (await db(CHECKOUT_SESSIONS)
    .insert({
      ...columns,
      metadata: JSON.stringify(metadata),
      expires_at: db.raw(`now() + (? * interval '1 second')`, [expiresInSeconds]),
      ...(requestKey ? { request_key: requestKey.key, request_fingerprint: requestKey.fingerprint } : {}),
    })
    .returning('*')) as Row[];
  return toSession(rows[0]!);
};

/** The session a merchant's request with this Idempotency-Key opened, with that request's fingerprint. */
export const findSessionByRequestKey = async (
  db: Db,
  merchantId: string,
  key: string,
): Promise<{ session: CheckoutSessionRecord; fingerprint: string | null } | undefined> => {
  const row = (await db(CHECKOUT_SESSIONS).where({ merchant_id: merchantId, request_key: key }).first()) as
    Row | undefined;
  return row
    ? { session: toSession(row), fingerprint: (row.request_fingerprint as string | null) ?? null }
    : undefined;
};

export const findSession = async (
  db: Db,
  id: string,
  merchantId?: string,
): Promise<CheckoutSessionRecord | undefined> => {
  const q = db(CHECKOUT_SESSIONS).where({ id });
  if (merchantId !== undefined) q.andWhere({ merchant_id: merchantId });
  const row = (await q.first()) as Row | undefined;
  return row ? toSession(row) : undefined;
};

/**
 * Locks the session row for the rest of the transaction and says whether it is past its expiry by
 * the database clock. Concurrent payments for one session queue here, one at a time.
 */
export const lockSession = async (
  trx: Knex.Transaction,
  id: string,
): Promise<{ session: CheckoutSessionRecord; pastExpiry: boolean } | undefined> => {
  const row = (await trx(CHECKOUT_SESSIONS)
    .select('*', trx.raw('expires_at <= now() as past_expiry'))
    .where({ id })
    .forUpdate()
    .first()) as Row | undefined;
  return row ? { session: toSession(row), pastExpiry: Boolean(row.past_expiry) } : undefined;
};

/** Links a payment to an open, unpaid session; false when another payment got there first. */
export const attachPayment = async (db: Db, sessionId: string, paymentId: string): Promise<boolean> => {
  const n = await db(CHECKOUT_SESSIONS)
    .where({ id: sessionId, status: 'open' })
    .whereNull('payment_id')
    .update({ payment_id: paymentId, updated_at: db.fn.now() });
  return n === 1;
};

/** A failed payment gives its session back: the customer may pay again until it expires. */
export const releaseSession = async (db: Db, sessionId: string, paymentId: string): Promise<void> => {
  await db(CHECKOUT_SESSIONS)
    .where({ id: sessionId, status: 'open', payment_id: paymentId })
    .update({ payment_id: null, updated_at: db.fn.now() });
};

/** When a checkout session was created; undefined for an unknown session. */
export const sessionCreatedAt = async (db: Db, sessionId: string): Promise<Date | undefined> => {
  const row = (await db(CHECKOUT_SESSIONS).select('created_at').where({ id: sessionId }).first()) as
    { created_at: Date | string } | undefined;
  return row ? new Date(row.created_at) : undefined;
};
