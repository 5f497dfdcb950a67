import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import {
  assertScopesDeclared,
  canonicalUuids,
  orderRoutes,
  scopeGranted,
  routesOf,
  type OperationId,
  type OwningService,
  type RouteAuth,
  type RouteOf,
  type RouteSpec,
  type ServedOperationOf,
} from '@stablepay/contracts';
import type { CallerKind, InternalClaims } from '../auth/internal-token.js';
import { AppError, forbidden, insufficientScope, unauthorized, validationError } from '../errors.js';
import { fieldDetail } from '../errors.js';

type Part<R, K extends 'body' | 'query' | 'params'> = R extends { request: infer Q }
  ? Q extends { [P in K]: infer S extends z.ZodType }
    ? z.output<S>
    : undefined
  : undefined;

/** The merchant a `key` or `jwt` route acts for; guaranteed present by the caller guard. */
export interface RouteMerchant {
  merchantId: string;
  merchantPublicId?: string;
  caller: CallerKind;
}

/** What a route handler receives: every part already validated against the catalogue's schemas. */
export interface RouteInput<R extends RouteSpec> {
  body: Part<R, 'body'>;
  query: Part<R, 'query'>;
  params: Part<R, 'params'>;
  merchant: R['auth'] extends 'key' | 'jwt' | 'jwt_or_key' ? RouteMerchant : undefined;
  auth: InternalClaims | undefined;
  req: Request;
  res: Response;
}

export type RouteHandler<R extends RouteSpec> = (input: RouteInput<R>) => Promise<void> | void;

/** One handler per catalogue route the service serves (planned routes excluded): checked by tsc. */
export type RouteHandlers<S extends OwningService> = {
  [Op in ServedOperationOf<S>]: RouteHandler<RouteOf<Op>>;
};

/** Handler of one catalogue operation, typed from its schemas. */
export type HandlerOf<Op extends OperationId> = RouteHandler<RouteOf<Op>>;

const ALLOWED: Record<RouteAuth, { kinds: CallerKind[]; what: string }> = {
  public: { kinds: ['public', 'api_key', 'user', 'service'], what: 'no credential' },
  key: { kinds: ['api_key'], what: 'an API key' },
  jwt: { kinds: ['user'], what: 'a dashboard session' },
  jwt_or_key: { kinds: ['api_key', 'user'], what: 'an API key or a dashboard session' },
  service: { kinds: ['service'], what: 'a service token' },
};

/**
 * The gateway routes each credential only to the endpoints it may use; checking the caller kind
 * again in the owning service means a mistake there cannot hand, say, an API key a dashboard route.
 */
export const callerGuard = (auth: RouteAuth): RequestHandler => {
  const { kinds, what } = ALLOWED[auth];
  return (_req, res, next) => {
    const caller = res.locals.auth?.caller;
    if (caller !== undefined && kinds.includes(caller)) return next();
    next(
      caller === undefined || caller === 'public'
        ? unauthorized()
        : forbidden(`This endpoint requires ${what}`),
    );
  };
};

/**
 * An API key may call a route only when it holds the route's scope. The gateway checks this before
 * forwarding; the owning service checks it again from the scopes the internal token carries, so a
 * mistake in the gateway's table cannot widen what a key may do. Dashboard sessions and services are
 * not scope-limited.
 */
export const scopeGuard = (spec: RouteSpec): RequestHandler => {
  const needed = spec.scope;
  return (_req, res, next) => {
    const auth = res.locals.auth;
    if (auth?.caller !== 'api_key') return next();
    // A key route without a scope never starts (assertScopesDeclared); a key on any other route
    // was already refused by the caller guard. Refuse rather than assume, should either change.
    if (!needed) return next(forbidden('This endpoint does not accept API keys'));
    next(scopeGranted(auth.scopes, needed) ? undefined : insufficientScope(needed));
  };
};

/**
 * A `stepUp` route is served only when the gateway says, in the internal token, that the user proved
 * it again: a request that reached the service some other way has no such claim and gets 403.
 */
export const stepUpGuard: RequestHandler = (_req, res, next) => {
  if (res.locals.auth?.caller === 'user' && res.locals.auth.stepUp) return next();
  next(
    new AppError('forbidden', 'This action needs you to confirm it is you', [
      fieldDetail('', 'No step-up was checked for this request', 'step_up_required'),
    ]),
  );
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deeper than any request of the interface nests; refused before anything walks it recursively. */
export const MAX_REQUEST_DEPTH = 64;

type Detail = ReturnType<typeof fieldDetail>;
const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
const unsafeText = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/**
 * NUL characters and lone UTF-16 surrogates: no field of the interface may carry them. Walked
 * with an explicit stack, and anything nested past MAX_REQUEST_DEPTH is refused, so a body of a
 * million `[` (valid JSON, within the size limit) is a 400 rather than a stack overflow here or
 * in any later recursive step (schemas, JSON.stringify).
 */
export const unsafeTextDetails = (value: unknown, path = ''): Detail[] => {
  const details: Detail[] = [];
  const pending: Array<[unknown, string, number]> = [[value, path, 0]];
  while (pending.length) {
    const [current, at, depth] = pending.pop()!;
    if (typeof current === 'string') {
      if (unsafeText(current))
        details.push(
          fieldDetail(at, 'Text must not contain NUL characters or invalid Unicode', 'invalid_text'),
        );
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_REQUEST_DEPTH) {
      details.push(fieldDetail(at, `Nested deeper than ${MAX_REQUEST_DEPTH} levels`, 'too_deep'));
      continue;
    }
    const children: Array<[unknown, string, number]> = [];
    if (Array.isArray(current)) current.forEach((v, i) => children.push([v, join(at, i), depth + 1]));
    else
      for (const [k, v] of Object.entries(current)) {
        if (unsafeText(k))
          details.push(
            fieldDetail(
              join(at, k),
              'Text must not contain NUL characters or invalid Unicode',
              'invalid_text',
            ),
          );
        children.push([v, join(at, k), depth + 1]);
      }
    // Reversed onto the stack, so details come out in document order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return details;
};

const objectKeys = (schema: z.ZodType | undefined): Set<string> | undefined => {
  if (!schema) return new Set();
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape ? new Set(Object.keys(shape)) : undefined;
};

/**
 * A query parameter the route does not define (bracket forms such as `status[$ne]` included) is
 * refused by name rather than silently ignored; a repeated parameter is refused too.
 */
const queryProblems = (spec: RouteSpec, query: Record<string, unknown>) => {
  const known = objectKeys(spec.request?.query);
  const problems: ReturnType<typeof fieldDetail>[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (known && !known.has(name)) {
      problems.push(fieldDetail(name, `Unknown query parameter "${name}"`, 'unrecognized_parameter'));
    } else if (typeof value !== 'string') {
      problems.push(fieldDetail(name, `Query parameter "${name}" must be given once`, 'invalid_type'));
    }
  }
  return problems;
};

/**
 * Whether a raw query string holds percent-encoding that does not decode (`%E0%A4%A`, `%zz`,
 * bytes that are not UTF-8). The query parser would keep such text as it is, so a malformed
 * `search=%E0%A4%A` would silently search for those characters; it is refused instead, as a
 * malformed path is.
 */
export const malformedQuery = (url: string | undefined): boolean => {
  const at = url?.indexOf('?') ?? -1;
  if (at < 0) return false;
  for (const part of url!.slice(at + 1).split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return true;
    }
  }
  return false;
};

/**
 * Path parameters with every UUID in its canonical (lower-case) spelling, written back onto the
 * request so that whatever reads `req.params` afterwards sees the same id the handler gets:
 * `/webhooks/3F2A…` and `/webhooks/3f2a…` are one resource, and only one spelling ever reaches a
 * domain function, an AEAD's associated data, a cache key or an idempotency record.
 */
export const canonicalizeParams = (req: { params?: unknown }): Record<string, unknown> => {
  const params = (req.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string') params[name] = canonicalUuids(value);
  }
  return params;
};

/**
 * The route's path with the request's (canonical) parameters filled in: the same resource as the
 * path received, spelt the one way (`/merchant-webhooks/api/<lower-case id>/test`).
 */
export const canonicalRoutePath = (routePath: string, params: Record<string, unknown>): string =>
  routePath.replace(/:([A-Za-z0-9_]+)/g, (whole, name: string) => {
    const value = params[name];
    return typeof value === 'string' ? encodeURIComponent(value) : whole;
  });

export interface ParsedRequest {
  body: unknown;
  query: unknown;
  params: unknown;
}

/**
 * Validates a request against its catalogue route: path parameters canonicalised first (UUIDs in
 * lower case, see canonicalizeParams), then text rules (one rule for every route), unknown query
 * parameters, and each part's schema. Throws the envelope's 400.
 */
export const parseRouteRequest = (
  spec: RouteSpec,
  req: { params?: unknown; query?: unknown; body?: unknown; originalUrl?: string },
  parts: { body?: boolean } = {},
): ParsedRequest => {
  if (malformedQuery(req.originalUrl)) {
    throw new AppError('validation', 'Query validation failed', [
      fieldDetail('', 'The query string is not valid percent-encoding', 'invalid_encoding'),
    ]);
  }
  const params = canonicalizeParams(req);
  const query = (req.query ?? {}) as Record<string, unknown>;
  const checkBody = parts.body ?? true;
  const text = [
    ...unsafeTextDetails(params),
    ...unsafeTextDetails(query),
    ...(checkBody ? unsafeTextDetails(req.body) : []),
  ];
  if (text.length) throw new AppError('validation', 'Request validation failed', text);
  const unknown = queryProblems(spec, query);
  if (unknown.length) throw new AppError('validation', 'Query validation failed', unknown);
  const parse = (schema: z.ZodType | undefined, value: unknown, where: string) => {
    if (!schema) return undefined;
    const r = schema.safeParse(value);
    if (!r.success) throw validationError(r.error, where);
    return r.data;
  };
  return {
    params: parse(spec.request?.params, params, 'Path parameter'),
    query: parse(spec.request?.query, query, 'Query'),
    body: checkBody ? parse(spec.request?.body, req.body ?? {}, 'Body') : undefined,
  };
};

/** Balances and anything marked noStore: no answer may be reused, errors included. */
export const noStoreHeader: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * Checks that a service's handlers and its catalogue routes match one to one: a catalogue route
 * without a handler, or a handler without a catalogue route, stops the start; so does a route an
 * API key may call that declares no scope.
 */
export const assertHandlersMatchCatalogue = (
  service: OwningService,
  handlerIds: readonly string[],
  catalogue: readonly RouteSpec[] = routesOf(service),
): RouteSpec[] => {
  const served = catalogue.filter((r) => r.service === service && !r.planned);
  assertScopesDeclared(service, served);
  const ids = new Set(handlerIds);
  const missing = served.filter((r) => !ids.has(r.operationId));
  const known = new Set(served.map((r) => r.operationId));
  const stray = handlerIds.filter((id) => !known.has(id));
  const problems = [
    ...missing.map(
      (r) => `catalogue route ${r.operationId} (${r.method.toUpperCase()} ${r.path}) has no handler`,
    ),
    ...stray.map((id) => `handler ${id} has no catalogue route`),
  ];
  if (problems.length) throw new Error(`${service}: ${problems.join('; ')}`);
  return served;
};

/**
 * Mounts a service's catalogue routes in an order where no parameter segment shadows a static
 * one; each gets the caller guard of its auth column, validation of every part, then its handler.
 */
export const mountRoutes = <S extends OwningService>(
  router: Router,
  service: S,
  handlers: RouteHandlers<S>,
  catalogue?: readonly RouteSpec[],
): void => {
  const table = handlers as unknown as Record<string, RouteHandler<RouteSpec>>;
  const served = assertHandlersMatchCatalogue(service, Object.keys(table), catalogue);
  for (const spec of orderRoutes(served)) {
    const handler = table[spec.operationId]!;
    const chain: RequestHandler[] = [];
    if (spec.noStore) chain.push(noStoreHeader);
    chain.push(callerGuard(spec.auth));
    chain.push(scopeGuard(spec));
    if (spec.stepUp) chain.push(stepUpGuard);
    chain.push(async (req, res) => {
      const parsed = parseRouteRequest(spec, req);
      const auth = res.locals.auth;
      const merchant =
        auth?.merchantId && spec.auth !== 'public' && spec.auth !== 'service'
          ? { merchantId: auth.merchantId, merchantPublicId: auth.merchantPublicId, caller: auth.caller }
          : undefined;
      await handler({ ...parsed, merchant, auth, req, res } as RouteInput<RouteSpec>);
    });
    router[spec.method](spec.path, ...chain);
  }
};
