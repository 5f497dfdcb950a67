import { AppError, sendError } from '@stablepay/platform';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { failureCounter } from './failure-counter.js';
import type { GatewayContext } from '../gateway-context.js';
import { clientIp } from './rate-limit.js';

const WINDOW_MS = 60_000;

declare module 'express-serve-static-core' {
  interface Locals {
    /** Set by `authenticate` when the X-API-Key sent is not a valid key. */
    rejectedApiKey?: boolean;
  }
}

export interface FailedKeyThrottle {
  /** Before authentication: 429 for an address that sent too many invalid keys lately. */
  check: RequestHandler;
  /** After authentication: counts the request's key against its address when it was refused. */
  record: ErrorRequestHandler;
}

/**
 * Invalid API keys per client address. The per-key limit cannot stop guessing (each guess is a new
 * key), so an address that sends too many keys that are not valid has its key requests refused for
 * the rest of the window, its valid keys included; other addresses are untouched. Counted in the
 * rate-limit store, so with Redis the count is the deployment's.
 */
export const failedKeyThrottle = (ctx: GatewayContext): FailedKeyThrottle => {
  const failures = failureCounter(
    ctx.limitStores.create('failed-key'),
    ctx.config.RATE_LIMIT_FAILED_KEYS_PER_MINUTE,
    WINDOW_MS,
  );
  const keyOf = (req: Request) => `ip:${clientIp(req)}`;
  return {
    check: async (req, res, next) => {
      if (!req.header('x-api-key')) return next();
      try {
        const seconds = await failures.lockedFor(keyOf(req));
        if (seconds === undefined) return next();
        sendError(
          res,
          new AppError('rate_limited', 'Too many invalid API keys from this address', [], seconds),
        );
      } catch (err) {
        next(err);
      }
    },
    record: async (err: unknown, req, res, next) => {
      if (res.locals.rejectedApiKey)
        await failures
          .recordFailure(keyOf(req))
          .catch((cause: unknown) => ctx.logger.warn('could not count a failed API key', { err: cause }));
      next(err);
    },
  };
};
