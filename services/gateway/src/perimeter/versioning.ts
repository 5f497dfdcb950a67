import type { RouteSpec } from '@stablepay/contracts';
import {
  API_VERSION,
  VersionHeaders,
  deprecationHeaderValues,
  deprecationOf,
  type Deprecation,
} from '@stablepay/contracts/openapi/versioning';
import type { Request, RequestHandler, Response } from 'express';
import { PROXY_BODY_LIMIT, bufferBodyWhen } from './body.js';

/** Every answer of the API names the version that gave it, the gateway's own refusals included. */
export const apiVersionHeader: RequestHandler = (_req, res, next) => {
  res.setHeader(VersionHeaders.Version, API_VERSION);
  next();
};

const announce = (res: Response, deprecation: Deprecation): void => {
  const { deprecation: since, sunset } = deprecationHeaderValues(deprecation);
  res.setHeader(VersionHeaders.Deprecation, since);
  res.setHeader(VersionHeaders.Sunset, sunset);
};

/**
 * Whether a JSON object body names the field; a body we cannot read as JSON (compressed, invalid)
 * does not. Without a backslash every key is spelt out in the bytes, so a body in which the name
 * does not appear cannot name it, and is not parsed.
 */
const bodyNames = (res: Response, req: Request, field: string): boolean => {
  const raw = res.locals.rawBody;
  if (!raw?.length || req.header('content-encoding')) return false;
  if (!raw.includes(field) && !raw.includes('\\')) return false;
  try {
    const body: unknown = JSON.parse(raw.toString('utf8'));
    return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, field);
  } catch {
    return false;
  }
};

/**
 * `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) on a deprecated operation: first in its chain, so
 * that every answer carries them, refusals included. Empty for an operation that is not deprecated
 * or of which only a body field is (see `deprecatedFieldHeaders`).
 */
export const deprecatedOperationHeaders = (spec: RouteSpec): RequestHandler[] => {
  const deprecation = deprecationOf(spec.operationId);
  if (!deprecation || deprecation.bodyField) return [];
  return [
    (_req, res, next) => {
      announce(res, deprecation);
      next();
    },
  ];
};

/**
 * The same headers when the request used a deprecated body field. A forwarded body is otherwise
 * streamed untouched; for these routes it is read (bounded, `read`) and then forwarded as read. The
 * gateway's own routes have parsed theirs already (`read` false).
 */
export const deprecatedFieldHeaders = (spec: RouteSpec, { read }: { read: boolean }): RequestHandler[] => {
  const deprecation = deprecationOf(spec.operationId);
  const field = deprecation?.bodyField;
  if (!deprecation || !field) return [];
  return [
    ...(read ? [bufferBodyWhen(() => true, PROXY_BODY_LIMIT)] : []),
    (req, res, next) => {
      if (bodyNames(res, req, field)) announce(res, deprecation);
      next();
    },
  ];
};
