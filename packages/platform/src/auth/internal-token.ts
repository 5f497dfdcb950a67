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

export const signInternalToken = (
  secret: string,
  claims: InternalClaims,
  ttlSeconds = 60,
  issuedAtMs = Date.now(),
): string =>
  jwt.sign({ ...claims, iat: Math.floor(issuedAtMs / 1000) }, hmacKeyOf(secret), {
    algorithm: 'HS256',
    expiresIn: ttlSeconds,
    issuer: ISSUER,
    audience: AUDIENCE,
  });

/** Distinct claims (or tokens) remembered at once; past this the memory starts again, empty. */
const REMEMBERED = 1_000;

/**
 * signInternalToken for a caller that signs on every request (the gateway's proxy): a token is
 * reused for requests with the same claims while it is younger than a quarter of its lifetime, so
 * whoever receives it still has at least three quarters of it, and HMAC-signing stays off the
 * request path. The claims are the whole of what a token says; two requests with the same claims
 * get what either would have been signed.
 */
export const internalTokenSigner = (
  secret: string,
  ttlSeconds = 60,
  now: () => number = Date.now,
): ((claims: InternalClaims) => string) => {
  const signed = new Map<string, { token: string; reuseUntil: number }>();
  return (claims) => {
    const key = JSON.stringify(claims);
    const at = now();
    const kept = signed.get(key);
    if (kept && at < kept.reuseUntil) return kept.token;
    if (signed.size >= REMEMBERED) signed.clear();
    const token = signInternalToken(secret, claims, ttlSeconds, at);
    signed.set(key, { token, reuseUntil: at + (ttlSeconds * 1000) / 4 });
    return token;
  };
};

/**
 * The secrets a service verifies with: the current one, then the previous one while a rotation is
 * under way, so pods still signing with either value are accepted during the rollout.
 */
export type VerificationSecrets = string | readonly string[];

const verifyWithAny = (
  secrets: VerificationSecrets,
  token: string,
  clockTimestamp?: number,
): jwt.JwtPayload & InternalClaims => {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  let failure: unknown = new Error('no verification secret');
  for (const secret of list) {
    try {
      return jwt.verify(token, hmacKeyOf(secret), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        clockTimestamp,
      }) as jwt.JwtPayload & InternalClaims;
    } catch (err) {
      failure = err;
      // Only a signature made with another secret is worth trying the next one for.
      if (!(err instanceof jwt.JsonWebTokenError) || err.message !== 'invalid signature') break;
    }
  }
  throw failure;
};

/** The token's claims, checked, and its expiry (seconds since the epoch). */
const verifiedToken = (
  secrets: VerificationSecrets,
  token: string,
  clockTimestamp?: number,
): { claims: InternalClaims; exp: number | undefined } => {
  const decoded = verifyWithAny(secrets, token, clockTimestamp);
  const { caller, merchantId, merchantPublicId, userId, apiKeyId, scopes, stepUp } = decoded;
  if (!['api_key', 'user', 'public', 'service'].includes(caller)) throw new Error('bad caller');
  if (caller !== 'public' && caller !== 'service' && !merchantId) throw new Error('no merchant');
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string')))
    throw new Error('bad scopes');
  const steppedUp = stepUp === 'mfa' || stepUp === 'recent_sign_in' ? { stepUp } : {};
  return {
    claims: {
      caller,
      merchantId,
      merchantPublicId,
      userId,
      apiKeyId,
      ...(scopes ? { scopes } : {}),
      ...steppedUp,
    },
    exp: decoded.exp,
  };
};

export const verifyInternalToken = (secrets: VerificationSecrets, token: string): InternalClaims =>
  verifiedToken(secrets, token).claims;

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
 * verifyInternalToken, remembering the tokens it accepted until they expire: the gateway reuses a
 * token for requests with the same claims, and the same string verified once verifies again (its
 * signature is over exactly these bytes), so only the expiry is checked again, as jwt.verify checks
 * it (expired from the second `exp` on). A token it refused is checked in full every time.
 */
export const internalTokenVerifier = (
  secrets: VerificationSecrets,
  now: () => number = Date.now,
): ((token: string) => InternalClaims) => {
  const accepted = new Map<string, { claims: InternalClaims; exp: number }>();
  return (token) => {
    const seconds = Math.floor(now() / 1000);
    const kept = accepted.get(token);
    if (kept && seconds < kept.exp) return { ...kept.claims };
    const { claims, exp } = verifiedToken(secrets, token, seconds);
    if (exp !== undefined) {
      if (accepted.size >= REMEMBERED) accepted.clear();
      accepted.set(token, { claims, exp });
    }
    return { ...claims };
  };
};

/**
 * Every service behind the gateway accepts only requests carrying a valid internal token, so a
 * service port reached directly grants nothing.
 */
export const requireInternalToken = (secrets: VerificationSecrets) => {
  const verify = internalTokenVerifier(secrets);
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = req.header(INTERNAL_TOKEN_HEADER);
    if (!token) return next(new AppError('unauthorized', 'Missing internal token'));
    try {
      res.locals.auth = verify(token);
      next();
    } catch {
      next(new AppError('unauthorized', 'Invalid internal token'));
    }
  };
};

/** The authenticated merchant of a request, or a 401 when the route needs one and has none. */
export const merchantOf = (
  res: Response,
): { merchantId: string; merchantPublicId?: string; caller: CallerKind } => {
  const auth = res.locals.auth;
  if (!auth?.merchantId) throw new AppError('unauthorized', 'Authentication required');
  return { merchantId: auth.merchantId, merchantPublicId: auth.merchantPublicId, caller: auth.caller };
};
