import type { Knex } from 'knex';
import type { WebhookEventName } from '@stablepay/contracts';
import { type RequestKey, type Db } from '@stablepay/platform';
import { ENDPOINTS } from '../migrations.js';

export interface EndpointRecord {
  id: string;
  merchantId: string;
  url: string;
  events: WebhookEventName[];
  description: string | null;
  secretSealed: string;
  isActive: boolean;
  failureCount: number;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
  /** Fingerprint of the request whose Idempotency-Key made the endpoint, if it had one. */
  requestFingerprint: string | null;
}

interface EndpointRow {
  id: string;
  merchant_id: string;
  url: string;
  events: WebhookEventName[] | string;
  description: string | null;
  secret_sealed: string;
  is_active: boolean;
  failure_count: number;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  request_fingerprint: string | null;
}

const toRecord = (r: EndpointRow): EndpointRecord => ({
  id: r.id,
  merchantId: r.merchant_id,
  url: r.url,
  events: typeof r.events === 'string' ? (JSON.parse(r.events) as WebhookEventName[]) : r.events,
  description: r.description,
  secretSealed: r.secret_sealed,
  isActive: r.is_active,
  failureCount: r.failure_count,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  createdAt: new Date(r.created_at),
  requestFingerprint: r.request_fingerprint ?? null,
});

export const insertEndpoint = async (
  db: Db,
  e: Pick<EndpointRecord, 'id' | 'merchantId' | 'url' | 'events' | 'description' | 'secretSealed'>,
  requestKey?: RequestKey,
): Promise<EndpointRecord> => {
  const [row] = await db(ENDPOINTS)
    .insert({
      id: e.id,
      merchant_id: e.merchantId,
      url: e.url,
      events: JSON.stringify(e.events),
      description: e.description,
      secret_sealed: e.secretSealed,
      request_key: requestKey?.key ?? null,
      request_fingerprint: requestKey?.fingerprint ?? null,
    })
    .returning('*');
  return toRecord(row as EndpointRow);
};

/** The endpoint a merchant's request with this Idempotency-Key made, if it still exists. */
export const findEndpointByRequestKey = async (
  db: Db,
  merchantId: string,
  key: string,
): Promise<EndpointRecord | undefined> => {
  const row = (await db(ENDPOINTS).where({ merchant_id: merchantId, request_key: key }).first()) as
    EndpointRow | undefined;
  return row ? toRecord(row) : undefined;
};

export const listEndpoints = async (db: Db, merchantId: string): Promise<EndpointRecord[]> =>
  (
    (await db(ENDPOINTS)
      .where({ merchant_id: merchantId })
      .orderBy([
        { column: 'created_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])) as EndpointRow[]
  ).map(toRecord);

export const countEndpoints = async (db: Db, merchantId: string): Promise<number> => {
  const [row] = await db(ENDPOINTS).where({ merchant_id: merchantId }).count<{ n: string }[]>('* as n');
  return Number(row?.n ?? 0);
};

/** Scoped by merchant: another merchant's endpoint is simply not found. */
export const findEndpoint = async (
  db: Db,
  merchantId: string,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<EndpointRecord | undefined> => {
  const q = db(ENDPOINTS).where({ id, merchant_id: merchantId }).first();
  if (opts.forUpdate) void q.forUpdate();
  const row = (await q) as EndpointRow | undefined;
  return row ? toRecord(row) : undefined;
};

export interface EndpointPatch {
  url?: string;
  events?: WebhookEventName[];
  description?: string | null;
  secretSealed?: string;
  /** true: active with the failure count reset; false: disabled by the merchant. */
  active?: boolean;
}

export const updateEndpoint = async (
  trx: Db,
  id: string,
  patch: EndpointPatch,
  disabledReason = 'disabled by the merchant',
): Promise<EndpointRecord> => {
  const set: Record<string, unknown> = { updated_at: trx.fn.now() };
  if (patch.url !== undefined) set.url = patch.url;
  if (patch.events !== undefined) set.events = JSON.stringify(patch.events);
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.secretSealed !== undefined) set.secret_sealed = patch.secretSealed;
  if (patch.active === true) {
    Object.assign(set, { is_active: true, failure_count: 0, disabled_at: null, disabled_reason: null });
  } else if (patch.active === false) {
    Object.assign(set, { is_active: false, disabled_at: trx.fn.now(), disabled_reason: disabledReason });
  }
  const [row] = await trx(ENDPOINTS).where({ id }).update(set).returning('*');
  return toRecord(row as EndpointRow);
};

/**
 * Counts the deleted rows from `returning`, not from the driver's row count: under PGlite (the
 * embedded stack) knex answers a plain `del()` with the raw result object instead of a number, so
 * a count comparison said "nothing deleted" after deleting.
 */
/** Deletes the merchant's endpoint; what it was (for the change's event), or undefined when there was none. */
export const deleteEndpoint = async (
  db: Db,
  merchantId: string,
  id: string,
): Promise<Pick<EndpointRecord, 'id' | 'merchantId' | 'url'> | undefined> => {
  const [row] = (await db(ENDPOINTS)
    .where({ id, merchant_id: merchantId })
    .del(['id', 'merchant_id', 'url'])) as Array<{ id: string; merchant_id: string; url: string }>;
  return row && { id: row.id, merchantId: row.merchant_id, url: row.url };
};

/** One sealed secret, to prove at start that the configured key opens what is stored. */
export const anySealedSecret = async (db: Db): Promise<{ id: string; secretSealed: string } | undefined> => {
  const row = (await db(ENDPOINTS).first('id', 'secret_sealed')) as
    { id: string; secret_sealed: string } | undefined;
  return row && { id: row.id, secretSealed: row.secret_sealed };
};

/** Up to `limit` endpoints' sealed secrets after `afterId`, in id order (a scan over every endpoint). */
export const sealedSecretsAfter = async (
  db: Db,
  afterId: string | undefined,
  limit: number,
): Promise<Array<{ id: string; secretSealed: string }>> => {
  const q = db(ENDPOINTS).select('id', 'secret_sealed').orderBy('id').limit(limit);
  if (afterId) q.where('id', '>', afterId);
  const rows = (await q) as Array<{ id: string; secret_sealed: string }>;
  return rows.map((r) => ({ id: r.id, secretSealed: r.secret_sealed }));
};

/**
 * Replaces a sealed secret only while the row still holds `expected`: a secret regenerated, or
 * re-sealed by another replica, in the meantime is left alone. Returns whether it was replaced.
 */
export const replaceSealedSecret = async (
  db: Db,
  id: string,
  expected: string,
  replacement: string,
): Promise<boolean> =>
  (await db(ENDPOINTS).where({ id, secret_sealed: expected }).update({ secret_sealed: replacement })) === 1;

/** Locks the endpoint row first, so every transaction touching an endpoint's attempts orders its locks alike. */
export const lockEndpoint = async (
  trx: Knex.Transaction,
  id: string,
): Promise<{ id: string; merchantId: string; url: string; isActive: boolean } | undefined> => {
  const row = (await trx(ENDPOINTS)
    .where({ id })
    .forUpdate()
    .first('id', 'merchant_id', 'url', 'is_active')) as
    { id: string; merchant_id: string; url: string; is_active: boolean } | undefined;
  return row && { id: row.id, merchantId: row.merchant_id, url: row.url, isActive: row.is_active };
};

/** A failure while active: counts it and returns the new count (undefined when not active). */
export const countFailure = async (trx: Knex.Transaction, id: string): Promise<number | undefined> => {
  const [row] = (await trx(ENDPOINTS)
    .where({ id, is_active: true })
    .update({ failure_count: trx.raw('failure_count + 1') })
    .returning('failure_count')) as Array<{ failure_count: number }>;
  return row?.failure_count;
};

/** Disables an active endpoint; false when it was already disabled (so the notice goes out once). */
export const disableEndpoint = async (trx: Knex.Transaction, id: string, reason: string): Promise<boolean> =>
  (await trx(ENDPOINTS).where({ id, is_active: true }).update({
    is_active: false,
    disabled_at: trx.fn.now(),
    disabled_reason: reason,
    updated_at: trx.fn.now(),
  })) > 0;
