import type { RouteSpec } from '../catalogue/route-spec.js';
import { commonHeaders, retryHeaders } from './headers.js';

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
const error = (description: string, headers: object = commonHeaders) => ({
  description,
  headers,
  content: errorContent,
});

/** components.responses shared by every operation. */
export const errorResponses = {
  BadRequest: error(
    'Validation failed: `details` lists every problem, each with the `field` it concerns and a ' +
      '`code`. Also an `Idempotency-Key` that is not 1-255 visible ASCII characters.',
  ),
  Unauthorized: error('Missing, invalid, expired or revoked credential'),
  Forbidden: error(
    'Credential of the wrong kind for this endpoint (e.g. an API key on /api-keys), an API key ' +
      'without the scope the endpoint needs (`details[].code` `insufficient_scope`), or a step-up it needs is missing',
  ),
  NotFound: error(
    "No such resource for this merchant: another merchant's resource answers 404 too, never 403",
  ),
  Conflict: error(
    'The resource is not in a state that allows the operation (`error` says which), or a request ' +
      'with the same `Idempotency-Key` is still running: retry it later with the same key',
  ),
  PayloadTooLarge: error('Request body larger than allowed (64 KiB for account routes, 1 MiB otherwise)'),
  UnsupportedMediaType: error(
    'The body is not JSON in UTF-8, or uses a Content-Encoding the API does not accept',
  ),
  UnprocessableEntity: error(
    'Well-formed but refused: an `Idempotency-Key` reused with a different body (a new request needs ' +
      'a new key), or a business rule `details` names',
  ),
  TooManyRequests: error(
    'Rate limited (per address, key or user), too many invalid API keys from this address, or a ' +
      'sign-in whose account is locked after repeated failures (`details[0].code` `account_locked`). ' +
      'Wait `Retry-After` seconds.',
    retryHeaders,
  ),
  InternalError: error('Unexpected error (never contains internals); quote `X-Request-Id` when reporting it'),
  NotImplemented: error('Part of the interface, not served by this release yet'),
  ServiceUnavailable: error(
    'A dependency is down or did not answer in time; retry after `Retry-After` seconds (a POST ' +
      'with the same `Idempotency-Key`, so it cannot happen twice)',
    retryHeaders,
  ),
} as const;

const ref = (name: keyof typeof errorResponses) => ({ $ref: `#/components/responses/${name}` });

/**
 * Error responses that apply to one route, derived from what the gateway and the owning service can
 * answer: validation wherever there is input (and on every POST, whose Idempotency-Key is checked),
 * credentials on non-public routes, 404 on a resource path, state conflicts and idempotency on writes,
 * body limits and media types where there is a body.
 */
export function errorResponsesFor(route: RouteSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { body, query, params } = route.request ?? {};
  const writes = route.method !== 'get';
  if (body || query || params || route.method === 'post') out['400'] = ref('BadRequest');
  if (route.auth !== 'public') {
    out['401'] = ref('Unauthorized');
    out['403'] = ref('Forbidden');
  }
  if (params) out['404'] = ref('NotFound');
  if (writes) out['409'] = ref('Conflict');
  if (body) {
    out['413'] = ref('PayloadTooLarge');
    out['415'] = ref('UnsupportedMediaType');
  }
  if (writes) out['422'] = ref('UnprocessableEntity');
  out['429'] = ref('TooManyRequests');
  out['500'] = ref('InternalError');
  if (route.planned) out['501'] = ref('NotImplemented');
  out['503'] = ref('ServiceUnavailable');
  return out;
}
