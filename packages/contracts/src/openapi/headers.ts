import { HttpHeaders } from '../shared/headers.js';
import { API_VERSION, VersionHeaders } from './versioning.js';

const text = { type: 'string' } as const;

/** components.headers: every response header the gateway sends that a client may act on. */
export const responseHeaders = {
  RequestId: {
    description:
      'Identifies this request in our logs (the `X-Request-Id` the client sent, when it is a valid ' +
      'id, else a new UUID); quote it when reporting a problem.',
    schema: text,
  },
  Version: {
    description: 'The API version that answered (see the versioning policy in `info.description`).',
    schema: { type: 'string', examples: [API_VERSION] },
  },
  RateLimit: {
    description:
      "The caller's quota in the current window: `limit=<requests>, remaining=<requests>, " +
      'reset=<seconds>` (IETF draft-7 RateLimit fields). Sent by every rate-limited route.',
    schema: { type: 'string', examples: ['limit=100, remaining=99, reset=60'] },
  },
  RateLimitPolicy: {
    description: 'The policy behind `RateLimit`: `<requests>;w=<window seconds>`.',
    schema: { type: 'string', examples: ['100;w=60'] },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description:
      '`true` when this answer is the stored answer of an earlier request with the same ' +
      '`Idempotency-Key`: nothing was done again.',
    schema: { type: 'string', enum: ['true'] },
  },
  Deprecation: {
    description:
      'RFC 9745: the operation (or a field the request used) is deprecated since this date, as ' +
      '`@<unix seconds>`.',
    schema: { type: 'string', examples: ['@1795737600'] },
  },
  Sunset: {
    description: 'RFC 8594: after this HTTP-date the deprecated operation or field may stop working.',
    schema: { type: 'string', examples: ['Mon, 31 May 2027 00:00:00 GMT'] },
  },
} as const;

type HeaderName = keyof typeof responseHeaders;

const ref = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

/** Sent on every answer of the gateway, errors included. */
export const commonHeaders = {
  [HttpHeaders.RequestId]: ref('RequestId'),
  [VersionHeaders.Version]: ref('Version'),
  RateLimit: ref('RateLimit'),
  'RateLimit-Policy': ref('RateLimitPolicy'),
};

/** Sent with 429 and 503. */
export const retryHeaders = { ...commonHeaders, [HttpHeaders.RetryAfter]: ref('RetryAfter') };

/** Sent on a replayed answer of a POST that carried an `Idempotency-Key`. */
export const replayHeaders = { 'Idempotent-Replayed': ref('IdempotentReplayed') };

/** Sent by a deprecated operation, or by one whose request used a deprecated field. */
export const deprecationHeaders = {
  [VersionHeaders.Deprecation]: ref('Deprecation'),
  [VersionHeaders.Sunset]: ref('Sunset'),
};
