import {
  assertScopesDeclared,
  orderRoutes,
  routes as merchantFacingRoutes,
  type RouteSpec,
} from '@stablepay/contracts';
import {
  AppError,
  canonicalRoutePath,
  canonicalizeParams,
  internalTokenSigner,
  noStoreHeader,
  notFoundHandler,
  parseRouteRequest,
  scopeGuard,
  sendError,
  type InternalClaims,
} from '@stablepay/platform';
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { GatewayContext } from '../gateway-context.js';
import { INTERNAL_TOKEN_TTL_SECONDS, forwardTo } from '../proxy/forward.js';
import type { Upstreams } from '../proxy/upstreams.js';
import { docsRouter } from '../docs/routes.js';
import { authenticate } from './authenticate.js';
import { PROXY_BODY_LIMIT, bufferForIdempotency, jsonBody } from './body.js';
import { corsPolicyFor, createCors, type CorsHandlers } from './cors.js';
import { failedKeyThrottle, type FailedKeyThrottle } from './failed-keys.js';
import { idempotency } from './idempotency.js';
import { createRateLimiters, type RateLimiters } from './rate-limit.js';
import { apiSecurityHeaders } from './security-headers.js';
import { requireStepUp } from '../mfa/step-up-middleware.js';
import { ownRoutes } from './own-routes.js';
import { apiVersionHeader, deprecatedFieldHeaders, deprecatedOperationHeaders } from './versioning.js';

/**
 * Routes where a password is checked, an account created or an account e-mailed: their own, tighter,
 * per-IP limit.
 */
const CREDENTIAL_ROUTES = new Set([
  '/auth/login',
  '/auth/login/mfa',
  '/auth/register',
  '/auth/email-confirmation',
  '/auth/email-confirmation/resend',
]);

/** A route of the interface that is not served yet: 501 in the envelope, and no service is asked. */
const notServedYet =
  (message: string): RequestHandler =>
  (_req, res) => {
    sendError(res, new AppError('not_implemented', message));
  };

/**
 * The request's path as the route spells it, with its parameters canonical (UUIDs in lower case):
 * what idempotency records and the owning service see, so `/refunds/api/<ID>` and
 * `/refunds/api/<id>` are one resource everywhere, whatever spelling the client used.
 */
const canonicalPath =
  (spec: RouteSpec): RequestHandler =>
  (req, res, next) => {
    res.locals.canonicalPath = canonicalRoutePath(spec.path, canonicalizeParams(req));
    next();
  };

/**
 * Path parameters and query of a forwarded request, checked here so that a bad request is a 400
 * even while the owning service is down; the body is streamed through, and its service checks it.
 */
const validateForwarded =
  (spec: RouteSpec): RequestHandler =>
  (req, _res, next) => {
    parseRouteRequest(spec, req, { body: false });
    next();
  };

interface Perimeter {
  cors: CorsHandlers;
  limiters: RateLimiters;
  failedKeys: FailedKeyThrottle;
  idempotent: RequestHandler;
  json: RequestHandler;
  buffered: RequestHandler;
  own: (spec: RouteSpec) => RequestHandler;
  steppedUp: RequestHandler;
  /** One signer for every forward, so that requests with the same claims share a token. */
  internalToken: (claims: InternalClaims) => string;
}

const buildPerimeter = (ctx: GatewayContext, served: readonly RouteSpec[]): Perimeter => ({
  cors: createCors(ctx.config.CORS_DASHBOARD_ORIGINS),
  limiters: createRateLimiters(ctx.config, ctx.limitStores),
  failedKeys: failedKeyThrottle(ctx),
  idempotent: idempotency(ctx),
  json: jsonBody(),
  buffered: bufferForIdempotency(PROXY_BODY_LIMIT),
  own: ownRoutes(ctx, served),
  steppedUp: requireStepUp(ctx),
  internalToken: internalTokenSigner(ctx.config.INTERNAL_TOKEN_SECRET, INTERNAL_TOKEN_TTL_SECONDS),
});

const assertStepUpOnJwtRoutes = (served: readonly RouteSpec[]): void => {
  const misplaced = served.filter((s) => s.stepUp && s.auth !== 'jwt');
  if (misplaced.length)
    throw new Error(
      `stepUp is for dashboard (jwt) routes only: ${misplaced.map((s) => s.operationId).join(', ')}`,
    );
};

const forwardFor = (
  ctx: GatewayContext,
  upstreams: Upstreams,
  p: Perimeter,
  spec: RouteSpec,
): RequestHandler => {
  const upstream = upstreams.get(spec.service);
  if (!upstream) throw new Error(`no upstream configured for service ${spec.service}`);
  return forwardTo(upstream, {
    internalToken: p.internalToken,
    timeoutMs: ctx.config.UPSTREAM_TIMEOUT_MS,
    maxBodyBytes: PROXY_BODY_LIMIT,
    logger: ctx.logger,
  });
};

type Step = RequestHandler | ErrorRequestHandler;

/**
 * Who may call the route and how often, decided before anything is validated, recorded or
 * forwarded: CORS by its class, rate limits, authentication by its auth column, the scope an API key
 * needs, and a step-up where the route asks for one.
 */
const guardsFor = (ctx: GatewayContext, p: Perimeter, spec: RouteSpec): Step[] => {
  // First, so that every answer carries them, the gateway's own refusals included.
  const chain: Step[] = [...(spec.noStore ? [noStoreHeader] : []), ...deprecatedOperationHeaders(spec)];
  chain.push(p.cors.forRoute(corsPolicyFor(spec.auth, spec.path)));
  // Limits that need no verified identity run before authentication, so floods cost no lookups.
  if (spec.auth === 'public')
    chain.push(CREDENTIAL_ROUTES.has(spec.path) ? p.limiters.auth : p.limiters.public);
  const takesKeys = spec.auth === 'key' || spec.auth === 'jwt_or_key';
  if (takesKeys) chain.push(p.failedKeys.check);
  if (spec.auth === 'key') chain.push(p.limiters.apiKey);
  chain.push(
    authenticate(ctx, spec.auth, {
      managesApiKeys: spec.path.startsWith('/api-keys'),
      managesAddressBook: spec.path.startsWith('/withdrawal-addresses'),
    }),
  );
  if (takesKeys) chain.push(p.failedKeys.record);
  chain.push(scopeGuard(spec));
  if (spec.auth === 'jwt' || spec.auth === 'jwt_or_key') chain.push(p.limiters.user);
  if (spec.stepUp) chain.push(p.steppedUp);
  return chain;
};

/** The gateway's own handler (JSON parsed here), a streaming forward (body untouched), or 501. */
const finalHandlers = (
  ctx: GatewayContext,
  upstreams: Upstreams,
  p: Perimeter,
  spec: RouteSpec,
): RequestHandler[] => {
  if (spec.planned) return [notServedYet(spec.planned)];
  if (spec.service === 'gateway')
    return [
      canonicalPath(spec),
      spec.maxBodyBytes ? jsonBody(spec.maxBodyBytes) : p.json,
      ...deprecatedFieldHeaders(spec, { read: false }),
      p.idempotent,
      p.own(spec),
    ];
  return [
    canonicalPath(spec),
    validateForwarded(spec),
    ...deprecatedFieldHeaders(spec, { read: true }),
    p.buffered,
    p.idempotent,
    forwardFor(ctx, upstreams, p, spec),
  ];
};

/** OPTIONS per path, answered by the policy of the route the preflight asks about. */
const mountPreflights = (router: Router, cors: CorsHandlers, ordered: readonly RouteSpec[]): void => {
  const byPath = new Map<string, RouteSpec[]>();
  for (const spec of ordered) byPath.set(spec.path, [...(byPath.get(spec.path) ?? []), spec]);
  for (const [path, specs] of byPath) {
    router.options(
      path,
      cors.preflight(specs.map((s) => ({ method: s.method, policy: corsPolicyFor(s.auth, s.path) }))),
    );
  }
};

/**
 * The whole merchant-facing surface, built from the contracts' route catalogue: every route gets
 * CORS by its class, a rate limit, authentication by its auth column, for an API key the route's
 * scope (refused before anything is validated, recorded or forwarded), idempotency for POST, and
 * then either the gateway's own handler (JSON parsed here), a streaming forward to the owning
 * service (body untouched), or 501 while the route is planned. Service-to-service routes are never
 * served, whatever table is given. Mounted before the platform's JSON parser; anything unmatched
 * ends in the 404 envelope here, so no stray body is ever parsed.
 */
export const buildGatewayRouter = (
  ctx: GatewayContext,
  upstreams: Upstreams,
  table: readonly RouteSpec[] = merchantFacingRoutes,
): Router => {
  const served = table.filter((spec) => !spec.internal);
  // A route an API key may call without a declared scope stops the start, as one without a handler does.
  assertScopesDeclared('gateway router', served);
  const perimeter = buildPerimeter(ctx, served);
  assertStepUpOnJwtRoutes(served);

  const router = Router();
  router.use(apiVersionHeader);
  router.use(apiSecurityHeaders());
  router.use(docsRouter(perimeter.cors));
  const ordered = orderRoutes(served);
  mountPreflights(router, perimeter.cors, ordered);
  for (const spec of ordered)
    router[spec.method](
      spec.path,
      ...guardsFor(ctx, perimeter, spec),
      ...finalHandlers(ctx, upstreams, perimeter, spec),
    );
  router.use(notFoundHandler);
  return router;
};
