import { AppError, badRequest, conflict, fieldDetail, type InternalClaims } from '@stablepay/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import {
  claimIdempotency,
  completeIdempotency,
  releaseIdempotency,
  type IdempotencyRow,
} from './idempotency-repo.js';
import {
  IDEMPOTENCY_KEY_RE,
  IDEMPOTENCY_TTL_HOURS,
  idempotencyRecordKeys,
  type IdempotencyRecordKeys,
} from './idempotency-keys.js';
import type { GatewayContext } from '../gateway-context.js';

export const IN_PROGRESS = 'Request with this Idempotency-Key is in progress';
export const KEY_REUSED = 'Idempotency-Key was already used with a different request body';
/** Responses larger than this are delivered but not kept; the key is then released. */
const MAX_STORED_RESPONSE = 1024 * 1024;

const callerIdentity = (auth: InternalClaims | undefined, req: Request): string => {
  if (auth?.apiKeyId) return `key:${auth.apiKeyId}`;
  if (auth?.userId) return `user:${auth.userId}`;
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
};

type Chunk = string | Buffer | Uint8Array;

/**
 * Holds what is written to the response (up to `limit` bytes) and runs `beforeEnd` before any of it
 * goes out: the record is saved before the client can see the answer, so an immediate retry finds
 * it completed, not in progress. (Passing writes through would let a client holding the whole body,
 * as its Content-Length says, retry before the end is called.) A larger answer is not kept: what is
 * held goes out, and the rest passes through.
 */
const interceptResponse = (
  res: Response,
  limit: number,
  beforeEnd: (body: Buffer | undefined) => Promise<void>,
): void => {
  const held: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const write = res.write.bind(res) as (chunk: Chunk, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const asBuffer = (chunk: unknown, encoding: unknown): Buffer | undefined => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined;
    if (Buffer.isBuffer(chunk)) return chunk;
    if (typeof chunk === 'string')
      return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    return Buffer.from(chunk as Uint8Array);
  };
  /** Keeps a chunk; false once the answer is past the limit (what was held is then sent). */
  const hold = (buf: Buffer): boolean => {
    if (overflow) return false;
    size += buf.length;
    if (size <= limit) {
      held.push(buf);
      return true;
    }
    overflow = true;
    for (const b of held.splice(0)) write(b);
    return false;
  };
  res.write = ((chunk: Chunk, ...rest: unknown[]) => {
    const buf = asBuffer(chunk, rest[0]);
    if (buf && hold(buf)) return true;
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    const buf = typeof args[0] === 'function' ? undefined : asBuffer(args[0], args[1]);
    const last = buf && !hold(buf) ? buf : undefined;
    void beforeEnd(overflow ? undefined : Buffer.concat(held)).finally(() => {
      end(overflow ? last : Buffer.concat(held));
    });
    return res;
  }) as Response['end'];
};

/**
 * The claim of the request being served, for a handler whose whole effect is a write to the
 * gateway's own database (creating an API key): it keeps the answer in the same transaction as the
 * effect, so no crash or lost client between the commit and the answer can leave the effect made
 * and the key free to make it again.
 */
export interface IdempotencyClaim {
  /** Keeps `body` (JSON) as the answer; throws 409 when the claim is no longer this request's. */
  completeIn(trx: Knex.Transaction, status: number, body: unknown): Promise<void>;
}

/** The claim of this request, when it carries an Idempotency-Key. */
export const idempotencyClaimOf = (res: Response): IdempotencyClaim | undefined =>
  res.locals.idempotencyClaim as IdempotencyClaim | undefined;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const replay = (res: Response, row: IdempotencyRow, keys: IdempotencyRecordKeys): void => {
  res.status(row.response_status ?? 200);
  if (row.response_content_type) res.setHeader('Content-Type', row.response_content_type);
  res.setHeader('Idempotent-Replayed', 'true');
  res.end(row.response_body ? keys.open(row.response_body) : undefined);
};

/**
 * `Idempotency-Key` on POST: the first request for (caller, method, path, key) runs; its answer
 * (status, content type, body) is kept for 24 h and replayed to repeats. A repeat while the first
 * still runs gets 409; the same key with another body gets 422 (the key names a different
 * request, a client bug rather than a retry). 5xx answers are not kept, so the client may retry.
 * Runs after authentication (the caller is part of the identity) and after the body is read.
 */
export const idempotency =
  (ctx: GatewayContext): RequestHandler =>
  async (req: Request, res: Response, next: NextFunction) => {
    const key = req.header('idempotency-key');
    if (req.method !== 'POST' || key === undefined) return next();
    try {
      if (!IDEMPOTENCY_KEY_RE.test(key)) {
        throw badRequest('Invalid Idempotency-Key', [
          fieldDetail('Idempotency-Key', 'must be 1-255 visible ASCII characters', 'invalid_header'),
        ]);
      }
      const keys = idempotencyRecordKeys(ctx.config.API_KEY_PEPPER, {
        caller: callerIdentity(res.locals.auth, req),
        method: req.method,
        path: res.locals.canonicalPath ?? req.path,
        key,
      });
      const requestHash = keys.requestHash(res.locals.rawBody ?? Buffer.alloc(0));
      const claim = await claimIdempotency(ctx.db, {
        lookupDigest: keys.lookupDigest,
        method: req.method,
        path: res.locals.canonicalPath ?? req.path,
        requestHash,
        ttlHours: IDEMPOTENCY_TTL_HOURS,
        staleAfterMs: ctx.config.UPSTREAM_TIMEOUT_MS * 4,
      });
      if (!claim.claimed) {
        const { existing } = claim;
        if (existing.request_hash !== requestHash) throw new AppError('unprocessable', KEY_REUSED);
        if (existing.state !== 'completed') throw conflict(IN_PROGRESS);
        replay(res, existing, keys);
        return;
      }
      let settled = false;
      const settle = async (status: number, body: Buffer | undefined): Promise<void> => {
        if (settled) return;
        settled = true;
        try {
          if (status < 500 && body !== undefined) {
            await completeIdempotency(ctx.db, claim.id, {
              status,
              contentType: (res.getHeader('content-type') as string | undefined) ?? null,
              sealedBody: keys.seal(body),
            });
          } else {
            await releaseIdempotency(ctx.db, claim.id);
          }
        } catch (err) {
          ctx.logger.error('could not settle idempotency record', { err });
        }
      };
      const claimed: IdempotencyClaim = {
        completeIn: async (trx, status, body) => {
          const sealedBody = keys.seal(Buffer.from(JSON.stringify(body)));
          if (
            !(await completeIdempotency(trx, claim.id, {
              status,
              contentType: JSON_CONTENT_TYPE,
              sealedBody,
            }))
          )
            throw conflict(IN_PROGRESS);
        },
      };
      res.locals.idempotencyClaim = claimed;
      // Settling a record the handler already completed changes nothing (both need it in progress).
      interceptResponse(res, MAX_STORED_RESPONSE, (body) => settle(res.statusCode, body));
      // A client that went away before the end leaves nothing to replay: let it retry.
      res.on('close', () => void settle(500, undefined));
      next();
    } catch (err) {
      next(err);
    }
  };
