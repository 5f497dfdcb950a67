import { BlockedAddressError } from './ssrf/guarded-lookup.js';

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

const NETWORK_MESSAGES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** The error and its causes, outermost first (undici and fetch wrap the socket's error). */
const chain = (err: unknown): unknown[] => {
  const out: unknown[] = [];
  for (let e = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) out.push(e);
  return out;
};

/**
 * A short, merchant-readable reason for a request that got no HTTP answer. Never includes
 * headers, the body or the secret: it is stored in the log the merchant reads.
 */
export const describeSendError = (err: unknown, timeoutMs: number): string => {
  const errors = chain(err);
  const blocked = errors.find((e): e is BlockedAddressError => e instanceof BlockedAddressError);
  if (blocked) return `blocked: ${blocked.message}`;
  for (const e of errors) {
    const { name, code } = e as { name?: string; code?: string };
    if (name === 'TimeoutError' || name === 'AbortError' || (code && TIMEOUT_CODES.has(code))) {
      return `timeout after ${timeoutMs} ms`;
    }
    if (code === 'EBLOCKEDADDRESS') return `blocked: ${(e as Error).message}`;
    if (code && NETWORK_MESSAGES[code]) return NETWORK_MESSAGES[code];
    if (code && /CERT|SSL|TLS|SELF_SIGNED|ALTNAME|UNABLE_TO/.test(code)) return `TLS error: ${code}`;
  }
  const first = errors[0] as { code?: string; message?: string } | undefined;
  const text = first?.code ?? first?.message ?? String(err);
  return `request failed: ${text}`.slice(0, 300);
};
