import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors.js';

/** Who called: a merchant's API key, a dashboard user's JWT, an anonymous public caller, or a service. */
export type CallerKind = 'api_key' | 'user' | 'public' | 'service';

export interface InternalClaims {
  caller: CallerKind;
  /** Internal merchant UUID; absent for public callers. */
  merchantId?: string;
  /** The merchant's public id (`<prefix>_live_<uuid>`). */
  merchantPublicId?: string;
  userId?: string;
  apiKeyId?: string;
  /**
   * For an `api_key` caller, the scopes the key holds, as the gateway read them. The owning
   * service checks the route's scope against these itself; a token without them grants no scope.
   */
  scopes?: string[];
  /** Set by the gateway on a `stepUp` route once the user proved it again: how (a code, or a recent sign-in). */
  stepUp?: 'mfa' | 'recent_sign_in';
}

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
const ISSUER = 'stablepay-gateway';
const AUDIENCE = 'stablepay-internal';

/*
 * Given a string, jsonwebtoken first tries to read it as a private, then a public key (two failed
 * parses) before using it as an HMAC secret, on every call: under load that was a quarter of a
 * service's CPU. The secret's key object is made once per secret instead; pass it to jwt.sign/verify.
 */
const keys = new Map<string, KeyObject>();
export const hmacKeyOf = (secret: string): KeyObject => {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
};

export const signInternalToken = (secret: string, claims: InternalClaims, ttlSeconds = 60): string =>
  jwt.sign(claims, hmacKeyOf(secret), {
    algorithm: 'HS256',
    expiresIn: ttlSeconds,
    issuer: ISSUER,
    audience: AUDIENCE,
  });

/**
 * The secrets a service verifies with: the current one, then the previous one while a rotation is
 * under way, so pods still signing with either value are accepted during the rollout.
 */
export type VerificationSecrets = string | readonly string[];

const verifyWithAny = (secrets: VerificationSecrets, token: string): jwt.JwtPayload & InternalClaims => {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  let failure: unknown = new Error('no verification secret');
  for (const secret of list) {
    try {
      return jwt.verify(token, hmacKeyOf(secret), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
      }) as jwt.JwtPayload & InternalClaims;
    } catch (err) {
      failure = err;
      // Only a signature made with another secret is worth trying the next one for.
      if (!(err instanceof jwt.JsonWebTokenError) || err.message !== 'invalid signature') break;
    }
  }
  throw failure;
};

export const verifyInternalToken = (secrets: VerificationSecrets, token: string): InternalClaims => {
  const decoded = verifyWithAny(secrets, token);
  const { caller, merchantId, merchantPublicId, userId, apiKeyId, scopes, stepUp } = decoded;
  if (!['api_key', 'user', 'public', 'service'].includes(caller)) throw new Error('bad caller');
  if (caller !== 'public' && caller !== 'service' && !merchantId) throw new Error('no merchant');
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string')))
    throw new Error('bad scopes');
  const steppedUp = stepUp === 'mfa' || stepUp === 'recent_sign_in' ? { stepUp } : {};
  return {
    caller,
    merchantId,
    merchantPublicId,
    userId,
    apiKeyId,
    ...(scopes ? { scopes } : {}),
    ...steppedUp,
  };
};

/** The current secret, then the previous one when a rotation has set it. */
export const internalTokenSecrets = (config: {
  INTERNAL_TOKEN_SECRET: string;
  INTERNAL_TOKEN_SECRET_PREVIOUS?: string;
}): string[] =>
  config.INTERNAL_TOKEN_SECRET_PREVIOUS
    ? [config.INTERNAL_TOKEN_SECRET, config.INTERNAL_TOKEN_SECRET_PREVIOUS]
    : [config.INTERNAL_TOKEN_SECRET];

declare module 'express-serve-static-core' {
  interface Locals {
    auth?: InternalClaims;
  }
}

/**
 * Every service behind the gateway accepts only requests carrying a valid internal token, so a
 * service port reached directly grants nothing.
 */
export const requireInternalToken =
  (secrets: VerificationSecrets) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const token = req.header(INTERNAL_TOKEN_HEADER);
    if (!token) return next(new AppError('unauthorized', 'Missing internal token'));
    try {
      res.locals.auth = verifyInternalToken(secrets, token);
      next();
    } catch {
      next(new AppError('unauthorized', 'Invalid internal token'));
    }
  };

/** The authenticated merchant of a request, or a 401 when the route needs one and has none. */
export const merchantOf = (
  res: Response,
): { merchantId: string; merchantPublicId?: string; caller: CallerKind } => {
  const auth = res.locals.auth;
  if (!auth?.merchantId) throw new AppError('unauthorized', 'Authentication required');
  return { merchantId: auth.merchantId, merchantPublicId: auth.merchantPublicId, caller: auth.caller };
};
