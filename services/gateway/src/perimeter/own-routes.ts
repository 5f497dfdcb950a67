import type { RouteSpec } from '@stablepay/contracts';
import {
  assertHandlersMatchCatalogue,
  handlerFor,
  parseRouteRequest,
  type RouteHandler,
  type RouteInput,
} from '@stablepay/platform';
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { accountRoutes } from '../accounts/routes.js';
import { apiKeyRoutes } from '../api-keys/routes.js';
import { auditRoutes } from '../audit/routes.js';
import { chainRoutes } from '../chains/routes.js';
import type { GatewayContext } from '../gateway-context.js';
import { merchantParams, merchantRoutes } from '../merchants/routes.js';
import { mfaRoutes } from '../mfa/routes.js';
import { walletParams, walletRoutes } from '../wallets/routes.js';
import type { GatewayRoutes } from './route-handlers.js';

/** Path parameters the gateway reads more leniently than the catalogue states (see each rule). */
const paramRules: Record<string, z.ZodType | undefined> = { ...merchantParams, ...walletParams };

/**
 * The gateway's own handlers, checked one to one against the gateway routes of the catalogue it
 * serves: a route without a handler, or a handler without a route, stops the start. Each request is
 * validated against its catalogue route, as every service's are, and handed over typed.
 */
export const ownRoutes = (
  ctx: GatewayContext,
  catalogue: readonly RouteSpec[],
): ((spec: RouteSpec) => RequestHandler) => {
  const handlers: GatewayRoutes = {
    ...accountRoutes(ctx),
    ...mfaRoutes(ctx),
    ...apiKeyRoutes(ctx),
    ...auditRoutes(ctx),
    ...merchantRoutes(ctx),
    ...walletRoutes(ctx),
    ...chainRoutes(ctx),
  };
  const byId = handlers as unknown as Record<string, RouteHandler<RouteSpec>>;
  assertHandlersMatchCatalogue('gateway', Object.keys(byId), catalogue);
  return (spec) => {
    // A dashboard twin is served by its original's handler.
    const handler = handlerFor(spec, byId)!;
    const params = paramRules[spec.operationId];
    const rules = params ? { ...spec, request: { ...spec.request, params } } : spec;
    return async (req, res) => {
      const parsed = parseRouteRequest(rules, req);
      const auth = res.locals.auth;
      const merchant =
        auth?.merchantId && spec.auth !== 'public'
          ? { merchantId: auth.merchantId, merchantPublicId: auth.merchantPublicId, caller: auth.caller }
          : undefined;
      await handler({ ...parsed, merchant, auth, req, res } as RouteInput<RouteSpec>);
    };
  };
};
