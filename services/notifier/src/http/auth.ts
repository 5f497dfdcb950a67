import type { RequestHandler } from 'express';
import { forbidden, unauthorized } from '@stablepay/platform';

/**
 * Endpoints marked `key` in the spec. The gateway already routes each credential only to the
 * endpoints it may use; checking the caller kind again means a mistake there cannot hand a public
 * caller a merchant's webhook secrets.
 */
export const apiKeyOnly: RequestHandler = (_req, res, next) => {
  const caller = res.locals.auth?.caller;
  if (caller === 'api_key') return next();
  next(
    caller === undefined || caller === 'public'
      ? unauthorized()
      : forbidden('This endpoint requires an API key'),
  );
};
