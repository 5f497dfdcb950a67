import { AppError, sendError } from '@stablepay/platform';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, type RateLimitInfo } from 'express-rate-limit';
import type { GatewayConfig } from '../config.js';
import { apiKeyDigest } from '../api-keys/key-format.js';
import type { RateLimitStores } from './rate-limit-store.js';

const WINDOW_MS = 60_000;

/**
 * The client's address: the TCP peer's, or the one our trusted proxies (TRUSTED_PROXIES) name in
 * X-Forwarded-For. IPv6 addresses count by their /56, so one host cannot step around a limit.
 */
export const clientIp = (req: Request): string =>
  ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');

const limiter = (
  stores: RateLimitStores,
  name: string,
  limit: number,
  keyGenerator: (req: Request, res: Response) => string,
): RequestHandler =>
  rateLimit({
    windowMs: WINDOW_MS,
    limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator,
    store: stores.create(name),
    handler: (req: Request, res: Response) => {
      const reset = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit?.resetTime;
      const seconds = reset
        ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000))
        : WINDOW_MS / 1000;
      sendError(res, new AppError('rate_limited', 'Too many requests', [], seconds));
    },
  });

/**
 * One limiter per class of caller. With REDIS_URL the counts are shared by every replica, so a
 * limit is the limit of the deployment; without it each replica counts alone (N replicas behind a
 * balancer let a client make up to N times the limit).
 */
export interface RateLimiters {
  /** per client IP, every public route */
  public: RequestHandler;
  /** per client IP, login and registration (password guessing, account creation) */
  auth: RequestHandler;
  /** per API key (by its digest, before the database is asked), every key route */
  apiKey: RequestHandler;
  /** per dashboard user, after the bearer token is verified */
  user: RequestHandler;
}

export const createRateLimiters = (config: GatewayConfig, stores: RateLimitStores): RateLimiters => ({
  public: limiter(stores, 'public', config.RATE_LIMIT_PUBLIC_PER_MINUTE, (req) => `ip:${clientIp(req)}`),
  auth: limiter(stores, 'auth', config.RATE_LIMIT_AUTH_PER_MINUTE, (req) => `ip:${clientIp(req)}`),
  apiKey: limiter(stores, 'api-key', config.RATE_LIMIT_KEY_PER_MINUTE, (req) => {
    const key = req.header('x-api-key')?.trim();
    return key ? `key:${apiKeyDigest(config.API_KEY_PEPPER, key)}` : `ip:${clientIp(req)}`;
  }),
  user: limiter(stores, 'user', config.RATE_LIMIT_KEY_PER_MINUTE, (req, res) => {
    const auth = res.locals.auth;
    if (auth?.caller === 'api_key' && auth.apiKeyId) return `key:${auth.apiKeyId}`;
    return auth?.userId ? `user:${auth.userId}` : `ip:${clientIp(req)}`;
  }),
});
