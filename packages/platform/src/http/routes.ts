import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import {
  assertScopesDeclared,
  orderRoutes,
  scopeGranted,
  routesOf,
  type OperationId,
  type OwningService,
  type RouteAuth,
  type RouteOf,
  type RouteSpec,
  type ServedOperationOf,
  type TwinOperationId,
} from '@stablepay/contracts';
import type { CallerKind, InternalClaims } from '../auth/internal-token.js';
import { AppError, fieldDetail, forbidden, insufficientScope, unauthorized } from '../errors.js';
import { parseRouteRequest } from './route-request.js';

export * from './route-request.js';

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

/**
 * One handler per catalogue route the service serves (planned routes excluded): checked by tsc. A
 * dashboard twin's is optional: left out, the handler of the operation it twins serves it.
 */
export type RouteHandlers<S extends OwningService> = {
  [Op in Exclude<ServedOperationOf<S>, TwinOperationId>]: RouteHandler<RouteOf<Op>>;
} & {
  [Op in Extract<ServedOperationOf<S>, TwinOperationId>]?: RouteHandler<RouteOf<Op>>;
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

/** Balances and anything marked noStore: no answer may be reused, errors included. */
export const noStoreHeader: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The handler serving a route: its own, or for a dashboard twin without one, its original's. */
export const handlerFor = <H>(
  spec: RouteSpec,
  table: Readonly<Record<string, H | undefined>>,
): H | undefined => table[spec.operationId] ?? (spec.twinOf === undefined ? undefined : table[spec.twinOf]);

/**
 * Checks that a service's handlers and its catalogue routes match one to one: a catalogue route
 * without a handler (a dashboard twin has its original's), or a handler without a catalogue route,
 * stops the start; so does a route an API key may call that declares no scope.
 */
export const assertHandlersMatchCatalogue = (
  service: OwningService,
  handlerIds: readonly string[],
  catalogue: readonly RouteSpec[] = routesOf(service),
): RouteSpec[] => {
  const served = catalogue.filter((r) => r.service === service && !r.planned);
  assertScopesDeclared(service, served);
  const ids = Object.fromEntries(handlerIds.map((id) => [id, true]));
  const missing = served.filter((r) => !handlerFor(r, ids));
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

/** The caller guard of its auth column, the scope and step-up guards, validation of every part, then the handler. */
const routeChain = (spec: RouteSpec, handler: RouteHandler<RouteSpec>): RequestHandler[] => {
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
  return chain;
};

/**
 * Mounts a service's catalogue routes in an order where no parameter segment shadows a static one,
 * each behind the chain of routeChain.
 */
export const mountRoutes = <S extends OwningService>(
  router: Router,
  service: S,
  handlers: RouteHandlers<S>,
  catalogue?: readonly RouteSpec[],
): void => {
  const table = handlers as unknown as Record<string, RouteHandler<RouteSpec> | undefined>;
  const served = assertHandlersMatchCatalogue(
    service,
    Object.keys(table).filter((id) => table[id] !== undefined),
    catalogue,
  );
  for (const spec of orderRoutes(served))
    router[spec.method](spec.path, ...routeChain(spec, handlerFor(spec, table)!));
};
