import type { HttpMethod, RouteAuth } from '@stablepay/contracts';
import cors, { type CorsOptions } from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Who may call a route from a browser:
 * - `open`: any origin, without credentials (the payment widget runs on merchants' sites);
 * - `dashboard`: only the configured dashboard origins (sign-in and bearer-token routes);
 * - `closed`: no origin at all (API-key routes are for servers; a key must never sit in a page).
 */
export type CorsPolicy = 'open' | 'dashboard' | 'closed';

export const corsPolicyFor = (auth: RouteAuth, path: string): CorsPolicy => {
  if (path.startsWith('/auth/')) return 'dashboard';
  if (auth === 'public') return 'open';
  if (auth === 'jwt') return 'dashboard';
  return 'closed';
};

const EXPOSED = [
  'X-Request-Id',
  'Retry-After',
  'Idempotent-Replayed',
  'RateLimit',
  'RateLimit-Policy',
  'Stablepay-Version',
  'Deprecation',
  'Sunset',
];
const OPEN_HEADERS = ['Content-Type', 'Idempotency-Key', 'X-Request-Id'];
const DASHBOARD_HEADERS = [...OPEN_HEADERS, 'Authorization', 'X-Mfa-Code'];

const noCors: RequestHandler = (_req, _res, next) => next();

export interface CorsHandlers {
  forRoute(policy: CorsPolicy): RequestHandler;
  /** Answers OPTIONS for a path, by the policy of the route the preflight asks about. */
  preflight(routes: ReadonlyArray<{ method: HttpMethod; policy: CorsPolicy }>): RequestHandler;
}

export const createCors = (dashboardOrigins: readonly string[]): CorsHandlers => {
  const base: CorsOptions = { credentials: false, exposedHeaders: EXPOSED, maxAge: 600 };
  const open = cors({ ...base, origin: '*', allowedHeaders: OPEN_HEADERS });
  const dashboard =
    dashboardOrigins.length > 0
      ? cors({ ...base, origin: [...dashboardOrigins], allowedHeaders: DASHBOARD_HEADERS })
      : noCors;
  const byPolicy: Record<CorsPolicy, RequestHandler> = { open, dashboard, closed: noCors };
  return {
    forRoute: (policy) => byPolicy[policy],
    preflight: (routes) => (req: Request, res: Response, next: NextFunction) => {
      const asked = req.header('access-control-request-method')?.toLowerCase();
      const route = routes.find((r) => r.method === asked);
      if (!route) return next();
      // An origin the policy does not allow gets an answer without Access-Control-Allow-Origin.
      byPolicy[route.policy](req, res, () => {
        res.status(204).end();
      });
    },
  };
};
