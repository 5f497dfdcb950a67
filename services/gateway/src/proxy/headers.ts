import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Connection-level headers (RFC 9110 §7.6.1): they describe one hop and are never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The client's credentials stop at the gateway; services trust only the internal token. */
const CLIENT_CREDENTIALS = new Set([
  'x-api-key',
  'authorization',
  'cookie',
  'x-internal-token',
  'x-mfa-code',
]);

/** Set by the gateway itself; a client's values would be spoofed. */
const GATEWAY_SET = new Set([
  'host',
  'x-request-id',
  'x-correlation-id',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'forwarded',
  'expect',
]);

/**
 * Services do not decide CORS, set cookies on the merchant-facing origin, or tell the world what
 * they run on.
 */
const UPSTREAM_ONLY = (name: string): boolean =>
  name.startsWith('access-control-') || name === 'set-cookie' || name === 'x-powered-by' || name === 'server';

const NO_TOKENS: ReadonlySet<string> = new Set();
const KEEP_ALIVE: ReadonlySet<string> = new Set(['keep-alive']);

/** The headers the Connection header names, to drop; what nearly every hop sends is answered at once. */
const connectionTokens = (headers: IncomingHttpHeaders): ReadonlySet<string> => {
  const connection = headers.connection;
  if (connection === undefined) return NO_TOKENS;
  if (connection.length === 10 && connection.toLowerCase() === 'keep-alive') return KEEP_ALIVE;
  return new Set(
    connection
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
};

export interface ForwardIdentity {
  internalToken: string;
  requestId: string;
  correlationId: string;
  clientIp: string;
  protocol: string;
  host?: string;
}

export const upstreamRequestHeaders = (
  incoming: IncomingHttpHeaders,
  identity: ForwardIdentity,
): OutgoingHttpHeaders => {
  const listed = connectionTokens(incoming);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (HOP_BY_HOP.has(name) || CLIENT_CREDENTIALS.has(name) || GATEWAY_SET.has(name) || listed.has(name))
      continue;
    out[name] = value;
  }
  out['x-internal-token'] = identity.internalToken;
  out['x-request-id'] = identity.requestId;
  out['x-correlation-id'] = identity.correlationId;
  out['x-forwarded-for'] = identity.clientIp;
  out['x-forwarded-proto'] = identity.protocol;
  if (identity.host) out['x-forwarded-host'] = identity.host;
  return out;
};

export const clientResponseHeaders = (upstream: IncomingHttpHeaders): OutgoingHttpHeaders => {
  const listed = connectionTokens(upstream);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined) continue;
    if (HOP_BY_HOP.has(name) || listed.has(name) || UPSTREAM_ONLY(name) || name === 'x-request-id') continue;
    out[name] = value;
  }
  return out;
};
