import { routes as routeTable, type RouteSpec } from '@stablepay/contracts';
import { notFoundHandler } from '@stablepay/platform';
import { Router, type RequestHandler } from 'express';
import type { GatewayContext } from '../gateway-context.js';
import { forwardTo } from '../proxy/forward.js';
import type { Upstreams } from '../proxy/upstreams.js';
import { apiKeyHandlers } from './api-keys/routes.js';
import { authHandlers } from './auth/routes.js';
import { docsRouter } from './docs/routes.js';
import type { GatewayHandlers } from './handlers.js';
import { merchantHandlers } from './merchants/routes.js';
import { authenticate } from './middleware/authenticate.js';
import { PROXY_BODY_LIMIT, bufferForIdempotency, jsonBody } from './middleware/body.js';
import { corsPolicyFor, createCors } from './middleware/cors.js';
import { idempotency } from './middleware/idempotency.js';
import { createRateLimiters } from './middleware/rate-limit.js';
import { apiSecurityHeaders } from './middleware/security-headers.js';
import { orderRoutes } from './route-order.js';

/** Routes where a password is checked or an account created: their own, tighter, per-IP limit. */
const CREDENTIAL_ROUTES = new Set(['/auth/login', '/auth/register']);

/**
 * The whole merchant-facing surface, built from the contracts' route table: every route gets
 * CORS by its class, a rate limit, authentication by its auth column, idempotency for POST, and
 * then either the gateway's own handler (JSON parsed here) or a streaming forward to the owning
 * service (body untouched). Mounted before the platform's JSON parser; anything unmatched ends
 * in the 404 envelope here, so no stray body is ever parsed.
 */
export const buildGatewayRouter = (
  ctx: GatewayContext,
  upstreams: Upstreams,
  table: readonly RouteSpec[] = routeTable,
): Router => {
  const { config } = ctx;
  const router = Router();
  const cors = createCors(config.CORS_DASHBOARD_ORIGINS);
  const limiters = createRateLimiters(config);
  const idempotent = idempotency(ctx);
  const json = jsonBody();
  const buffered = bufferForIdempotency(PROXY_BODY_LIMIT);
  const handlers: GatewayHandlers = {
    ...authHandlers(ctx),
    ...apiKeyHandlers(ctx),
    ...merchantHandlers(ctx),
  };

  const finalHandlers = (spec: RouteSpec): RequestHandler[] => {
    if (spec.service === 'gateway') {
      const handler = handlers[spec.operationId];
      if (!handler) throw new Error(`gateway route ${spec.method.toUpperCase()} ${spec.path} has no handler`);
      return [json, idempotent, handler];
    }
    const upstream = upstreams.get(spec.service);
    if (!upstream) throw new Error(`no upstream configured for service ${spec.service}`);
    const forward = forwardTo(upstream, {
      internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      maxBodyBytes: PROXY_BODY_LIMIT,
      logger: ctx.logger,
    });
    return [buffered, idempotent, forward];
  };

  const chainFor = (spec: RouteSpec): RequestHandler[] => {
    const chain: RequestHandler[] = [cors.forRoute(corsPolicyFor(spec.auth, spec.path))];
    // Limits that need no verified identity run before authentication, so floods cost no lookups.
    if (spec.auth === 'public')
      chain.push(CREDENTIAL_ROUTES.has(spec.path) ? limiters.auth : limiters.public);
    if (spec.auth === 'key') chain.push(limiters.apiKey);
    chain.push(authenticate(ctx, spec.auth, { managesApiKeys: spec.path.startsWith('/api-keys') }));
    if (spec.auth === 'jwt' || spec.auth === 'jwt_or_key') chain.push(limiters.user);
    return [...chain, ...finalHandlers(spec)];
  };

  router.use(apiSecurityHeaders());
  router.use(docsRouter(cors));

  const ordered = orderRoutes(table);
  const byPath = new Map<string, RouteSpec[]>();
  for (const spec of ordered) byPath.set(spec.path, [...(byPath.get(spec.path) ?? []), spec]);
  for (const [path, specs] of byPath) {
    router.options(
      path,
      cors.preflight(specs.map((s) => ({ method: s.method, policy: corsPolicyFor(s.auth, s.path) }))),
    );
  }
  for (const spec of ordered) router[spec.method](spec.path, ...chainFor(spec));

  router.use(notFoundHandler);
  return router;
};
