import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { isUniqueViolation } from '../db/database.js';
import { AppError } from '../errors.js';

/** The gateway's rule for an Idempotency-Key: 1-255 visible ASCII characters. */
const REQUEST_KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** The gateway's words for the same refusal, so a client sees one answer wherever it is caught. */
export const REQUEST_KEY_REUSED = 'Idempotency-Key was already used with a different request body';

/**
 * The client's Idempotency-Key as the gateway forwarded it, and a fingerprint of the request it
 * names. A service stores both with what the request created (unique per merchant and key): the
 * gateway forgets a key whose answer it never got (a timeout, a replica killed after commit), so
 * only the service can tell that a retry was already served.
 */
export interface RequestKey {
  key: string;
  fingerprint: string;
}

/** JSON with object keys sorted at every level: two bodies that mean the same print the same. */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/** SHA-256 of the parsed body in canonical form: a retry with the same body has the same one. */
export const requestFingerprint = (body: unknown): string =>
  createHash('sha256').update(canonicalJson(body)).digest('hex');

/** The forwarded key (when it is one the gateway would accept) with the fingerprint of `body`. */
export const requestKeyOf = (req: Request, body: unknown): RequestKey | undefined => {
  const key = req.header('idempotency-key');
  if (key === undefined || !REQUEST_KEY_RE.test(key)) return undefined;
  return { key, fingerprint: requestFingerprint(body) };
};

/**
 * What a key already made may answer this request only when the request is the same one; rows
 * stored before fingerprints were kept have none and are taken as the same.
 */
export const checkSameRequest = (stored: string | null | undefined, requestKey: RequestKey): void => {
  if (stored && stored !== requestKey.fingerprint) throw new AppError('unprocessable', REQUEST_KEY_REUSED);
};

/** What a key made, with the fingerprint stored beside it (null on rows from before fingerprints). */
export interface MadeByKey<T> {
  made: T;
  fingerprint: string | null | undefined;
}

/** Looks up what a merchant's request with this key made (scoped by merchant in the caller). */
export type FindMadeByKey<T> = (key: string) => Promise<MadeByKey<T> | undefined>;

/**
 * What `requestKey` already made, when the request is the same one (else the 422 of
 * checkSameRequest); undefined without a key or when it made nothing yet. A service that decides
 * under a lock calls this again inside its transaction, with `find` bound to that transaction.
 */
export const madeByKey = async <T>(
  requestKey: RequestKey | undefined,
  find: FindMadeByKey<T>,
): Promise<T | undefined> => {
  if (!requestKey) return undefined;
  const found = await find(requestKey.key);
  if (!found) return undefined;
  checkSameRequest(found.fingerprint, requestKey);
  return found.made;
};

export interface CreateOnce<T> {
  /** The client's key with its request's fingerprint; without one, `create` simply runs. */
  requestKey: RequestKey | undefined;
  /** The unique index on (merchant, request key) a concurrent twin's commit makes `create` violate. */
  uniqueIndex: string;
  find: FindMadeByKey<T>;
  /** Makes the resource, storing `requestKey` (key and fingerprint) with it. */
  create: () => Promise<T>;
}

/**
 * One resource per Idempotency-Key: what the key already made is answered again (a different body
 * is refused with 422), else `create` runs; when a concurrent request with the same key committed
 * first (`uniqueIndex` violated), what it made is answered, under the same check.
 */
export const createOnce = async <T>({ requestKey, uniqueIndex, find, create }: CreateOnce<T>): Promise<T> => {
  const made = await madeByKey(requestKey, find);
  if (made !== undefined) return made;
  try {
    return await create();
  } catch (err) {
    if (!requestKey || !isUniqueViolation(err, uniqueIndex)) throw err;
    const twin = await madeByKey(requestKey, find);
    if (twin === undefined) throw err;
    return twin;
  }
};
