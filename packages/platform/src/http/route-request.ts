import { z } from 'zod';
import { canonicalUuids, type RouteSpec } from '@stablepay/contracts';
import { AppError, fieldDetail, validationError } from '../errors.js';

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
