import { HttpHeaders } from '@stablepay/contracts';
import type { RequestHandler } from 'express';
import { stepUp } from './step-up.js';
import type { GatewayContext } from '../gateway-context.js';
import { requestMeta } from '../perimeter/request-meta.js';
import { dashboardUser } from '../perimeter/authenticate.js';

/**
 * For a route the catalogue marks `stepUp`: after authentication, before idempotency (a retried
 * request proves it again), the user proves it is them; how is added to the claims the internal
 * token carries, so the owning service sees it was checked.
 */
export const requireStepUp =
  (ctx: GatewayContext): RequestHandler =>
  async (req, res, next) => {
    try {
      const { userId } = dashboardUser(res.locals.auth);
      const method = await stepUp(
        ctx,
        { userId, authTime: res.locals.authTime as number | undefined },
        req.header(HttpHeaders.MfaCode),
        requestMeta(req, res),
      );
      res.locals.auth = { ...res.locals.auth!, stepUp: method };
      next();
    } catch (err) {
      next(err);
    }
  };
