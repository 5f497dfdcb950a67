import type { RequestHandler } from 'express';
import { forbidden, unauthorized, type CallerKind } from '@stablepay/platform';

/**
 * The gateway already routes each credential only to the endpoints it may use; checking the caller
 * kind again here means a mistake there cannot hand, say, a public caller a merchant's balance.
 */
const allowCallers =
  (kind: CallerKind, what: string): RequestHandler =>
  (_req, res, next) => {
    const caller = res.locals.auth?.caller;
    if (caller === kind) return next();
    next(
      caller === undefined || caller === 'public'
        ? unauthorized()
        : forbidden(`This endpoint requires ${what}`),
    );
  };

/** Endpoints marked `key` in the spec. */
export const apiKeyOnly = allowCallers('api_key', 'an API key');
/** Service-to-service endpoints under /internal. */
export const serviceOnly = allowCallers('service', 'a service token');
