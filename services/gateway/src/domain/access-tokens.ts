import jwt from 'jsonwebtoken';
import { hmacKeyOf } from '@stablepay/platform';

const ISSUER = 'stablepay-gateway';
const AUDIENCE = 'stablepay-dashboard';

/** Who a dashboard access token speaks for. */
export interface AccessClaims {
  userId: string;
  merchantId: string;
  merchantPublicId: string;
}

interface AccessPayload extends jwt.JwtPayload {
  typ: 'access';
  mid: string;
  mpid: string;
}

export const signAccessToken = (secret: string, claims: AccessClaims, ttlSeconds: number): string => {
  const payload: Omit<AccessPayload, 'sub'> = {
    typ: 'access',
    mid: claims.merchantId,
    mpid: claims.merchantPublicId,
  };
  return jwt.sign(payload, hmacKeyOf(secret), {
    algorithm: 'HS256',
    subject: claims.userId,
    expiresIn: ttlSeconds,
    issuer: ISSUER,
    audience: AUDIENCE,
  });
};

/** Throws on anything but a valid, unexpired HS256 access token of ours. */
export const verifyAccessToken = (secret: string, token: string): AccessClaims => {
  const decoded = jwt.verify(token, hmacKeyOf(secret), {
    algorithms: ['HS256'],
    issuer: ISSUER,
    audience: AUDIENCE,
  });
  if (typeof decoded === 'string') throw new Error('unexpected token payload');
  const payload = decoded as AccessPayload;
  if (payload.typ !== 'access' || !payload.sub || !payload.mid || !payload.mpid)
    throw new Error('not an access token');
  return { userId: payload.sub, merchantId: payload.mid, merchantPublicId: payload.mpid };
};
