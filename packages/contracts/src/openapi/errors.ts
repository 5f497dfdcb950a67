import type { RouteSpec } from '../catalogue/route-spec.js';

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
};

/** components.responses shared by every operation. */
export const errorResponses = {
  BadRequest: { description: 'Validation failed; `details` lists every problem', content: errorContent },
  Unauthorized: { description: 'Missing, invalid, expired or revoked credential', content: errorContent },
  Forbidden: {
    description:
      'Credential of the wrong kind for this endpoint (e.g. an API key on /api-keys), an API key ' +
      'without the scope the endpoint needs (`details[].code` `insufficient_scope`), or a step-up it needs is missing',
    content: errorContent,
  },
  NotFound: { description: 'No such resource for this merchant', content: errorContent },
  Conflict: {
    description: 'The resource is not in a state that allows the operation',
    content: errorContent,
  },
  PayloadTooLarge: { description: 'Request body larger than allowed', content: errorContent },
  TooManyRequests: {
    description:
      'Rate limited (per address, key or user), too many invalid API keys from this address, or a ' +
      'sign-in whose account is locked after repeated failures (`details[0].code` `account_locked`)',
    headers: retryAfter,
    content: errorContent,
  },
  InternalError: { description: 'Unexpected error (never contains internals)', content: errorContent },
  NotImplemented: {
    description: 'Part of the interface, not served by this release yet',
    content: errorContent,
  },
  ServiceUnavailable: { description: 'A dependency is down', headers: retryAfter, content: errorContent },
} as const;

const ref = (name: keyof typeof errorResponses) => ({ $ref: `#/components/responses/${name}` });

/** Error responses that apply to one route. */
export function errorResponsesFor(route: RouteSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (route.request?.body || route.request?.query || route.request?.params) out['400'] = ref('BadRequest');
  if (route.auth !== 'public') {
    out['401'] = ref('Unauthorized');
    out['403'] = ref('Forbidden');
  }
  if (route.request?.params) out['404'] = ref('NotFound');
  if (route.method !== 'get') out['409'] = ref('Conflict');
  if (route.request?.body) out['413'] = ref('PayloadTooLarge');
  out['429'] = ref('TooManyRequests');
  out['500'] = ref('InternalError');
  out['503'] = ref('ServiceUnavailable');
  return out;
}
