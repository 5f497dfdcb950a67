import jwt from 'jsonwebtoken';
import { hmacKeyOf } from '@stablepay/platform';

const ISSUER = 'stablepay-gateway';
const AUDIENCE = 'stablepay-dashboard';

/** Who a dashboard access token speaks for. */
export interface AccessClaims {
  userId: string;
  merchantId: string;
  merchantPublicId: string;
  /**
   * When the user last signed in with the password (unix seconds), kept across refreshes (OIDC's
   * `auth_time`); absent in tokens of sessions older than the claim.
   */
  authTime?: number;
}

interface AccessPayload extends jwt.JwtPayload {
  typ: 'access';
  mid: string;
  mpid: string;
  auth_time?: number;
}

export const signAccessToken = (secret: string, claims: AccessClaims, ttlSeconds: number): string => {
  const payload: Omit<AccessPayload, 'sub'> = {
    typ: 'access',
    mid: claims.merchantId,
    mpid: claims.merchantPublicId,
    ...(claims.authTime !== undefined && { auth_time: claims.authTime }),
  };
  return jwt.sign(payload, hmacKeyOf(secret), {
    algorithm: 'HS256',
    subject: claims.userId,
    expiresIn: ttlSeconds,
    issuer: ISSUER,
    audience: AUDIENCE,
  });
};

/**
 * Throws on anything but a valid, unexpired HS256 access token of ours, signed with one of
 * `secrets` (the current JWT_SECRET, then the previous one while a rotation is under way).
 */
export const verifyAccessToken = (secrets: string | readonly string[], token: string): AccessClaims => {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  let decoded: string | jwt.JwtPayload | undefined;
  let failure: unknown = new Error('no verification secret');
  for (const secret of list) {
    try {
      decoded = jwt.verify(token, hmacKeyOf(secret), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
      });
      break;
    } catch (err) {
      failure = err;
      // Only a signature made with another secret is worth trying the next one for.
      if (!(err instanceof jwt.JsonWebTokenError) || err.message !== 'invalid signature') break;
    }
  }
  if (decoded === undefined) throw failure;
  if (typeof decoded === 'string') throw new Error('unexpected token payload');
  const payload = decoded as AccessPayload;
  if (payload.typ !== 'access' || !payload.sub || !payload.mid || !payload.mpid)
    throw new Error('not an access token');
  return {
    userId: payload.sub,
    merchantId: payload.mid,
    merchantPublicId: payload.mpid,
    ...(typeof payload.auth_time === 'number' && { authTime: payload.auth_time }),
  };
};

/** The current JWT_SECRET, then the previous one when a rotation has set it. */
export const accessTokenSecrets = (config: { JWT_SECRET: string; JWT_SECRET_PREVIOUS?: string }): string[] =>
  config.JWT_SECRET_PREVIOUS ? [config.JWT_SECRET, config.JWT_SECRET_PREVIOUS] : [config.JWT_SECRET];
