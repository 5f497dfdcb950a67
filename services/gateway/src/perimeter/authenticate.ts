import type { RouteAuth } from '@stablepay/contracts';
import { AppError, forbidden, type InternalClaims } from '@stablepay/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { accessTokenSecrets, verifyAccessToken } from '../accounts/access-tokens.js';
import { authenticateApiKey } from '../api-keys/api-keys.js';
import type { GatewayContext } from '../gateway-context.js';

export const API_KEY_REQUIRED =
  'API key required: send it in the X-API-Key header (bearer tokens are not accepted here)';
export const BEARER_REQUIRED = 'Bearer access token required: send it in the Authorization header';
export const API_KEYS_CANNOT_MANAGE_KEYS = 'API keys cannot manage API keys';
export const API_KEYS_CANNOT_MANAGE_ADDRESSES =
  'API keys cannot see or change the withdrawal address book: it is managed in the dashboard';

const bearerToken = (req: Request): string | undefined => {
  const header = req.header('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
};

const presentedApiKey = (req: Request): string | undefined => req.header('x-api-key')?.trim() || undefined;

const fromApiKey = async (ctx: GatewayContext, key: string, res: Response): Promise<InternalClaims> => {
  const claims = await authenticateApiKey(ctx, key);
  if (!claims) {
    // Counted against the client's address by the failed-key throttle.
    res.locals.rejectedApiKey = true;
    throw new AppError('unauthorized', 'Invalid or revoked API key');
  }
  return claims;
};

const fromBearer = (ctx: GatewayContext, token: string, res: Response): InternalClaims => {
  try {
    const claims = verifyAccessToken(accessTokenSecrets(ctx.config), token);
    // How recent the sign-in is, for step-up routes; not a claim services need.
    res.locals.authTime = claims.authTime;
    return {
      caller: 'user',
      merchantId: claims.merchantId,
      merchantPublicId: claims.merchantPublicId,
      userId: claims.userId,
    };
  } catch {
    throw new AppError('unauthorized', 'Invalid or expired access token');
  }
};

/**
 * Resolves the caller of a route of the given auth class into `res.locals.auth` (the claims the
 * internal token will carry). Credentials of the other scheme never count:
 * - `key`: only X-API-Key; a bearer token alone gets 401 saying an API key is needed.
 * - `jwt`: only a bearer token. An API key alone gets 403 on the API-key management routes (the
 *   spec says keys cannot manage keys: the credential is valid, the action is not allowed) and on
 *   the withdrawal address book, and 401 on every other dashboard route, where it is simply not a
 *   credential of that route.
 * - `jwt_or_key`: either; the API key wins when both are sent.
 * - `public`: nothing is read; whatever the client sent is stripped before forwarding.
 */
export const authenticate =
  (
    ctx: GatewayContext,
    auth: RouteAuth,
    opts: { managesApiKeys?: boolean; managesAddressBook?: boolean } = {},
  ): RequestHandler =>
  async (req: Request, res: Response, next: NextFunction) => {
    try {
      const apiKey = presentedApiKey(req);
      const bearer = bearerToken(req);
      switch (auth) {
        case 'public':
          res.locals.auth = { caller: 'public' };
          break;
        case 'key':
          if (!apiKey) throw new AppError('unauthorized', API_KEY_REQUIRED);
          res.locals.auth = await fromApiKey(ctx, apiKey, res);
          break;
        case 'jwt':
          if (!bearer) {
            if (apiKey && opts.managesApiKeys) throw forbidden(API_KEYS_CANNOT_MANAGE_KEYS);
            // Where money may go is decided by a person, never by a key a server holds.
            if (apiKey && opts.managesAddressBook) throw forbidden(API_KEYS_CANNOT_MANAGE_ADDRESSES);
            throw new AppError('unauthorized', BEARER_REQUIRED);
          }
          res.locals.auth = fromBearer(ctx, bearer, res);
          break;
        case 'jwt_or_key':
          if (apiKey) res.locals.auth = await fromApiKey(ctx, apiKey, res);
          else if (bearer) res.locals.auth = fromBearer(ctx, bearer, res);
          else
            throw new AppError(
              'unauthorized',
              'Authentication required: send X-API-Key or a bearer access token',
            );
          break;
        case 'service':
          // Service-to-service routes are never exposed; should one be routed here, nobody gets in.
          throw new AppError('unauthorized', 'Authentication required');
      }
      next();
    } catch (err) {
      next(err);
    }
  };

/** The dashboard user and merchant behind a jwt route (its caller, as `authenticate` resolved it). */
export const dashboardUser = (auth: InternalClaims | undefined): { userId: string; merchantId: string } => {
  if (auth?.caller !== 'user' || !auth.userId || !auth.merchantId)
    throw new AppError('unauthorized', BEARER_REQUIRED);
  return { userId: auth.userId, merchantId: auth.merchantId };
};
