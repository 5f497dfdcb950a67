/** Why a JSON-RPC call failed; every kind is worth trying the next URL for. */
export type RpcErrorKind = 'refused' | 'timeout' | 'rate_limited' | 'server_error' | 'rpc_error';

export interface RpcAttemptFailure {
  /** The endpoint's origin only: RPC URLs often carry an API key in their path. */
  endpoint: string;
  kind: RpcErrorKind;
  message: string;
}

/**
 * Every URL of a chain failed for one call. Never a verdict: the caller keeps the payment pending
 * and tries again later, or answers 503.
 */
export class RpcUnavailableError extends Error {
  override readonly name = 'RpcUnavailableError';

  constructor(
    readonly chain: string,
    readonly method: string,
    readonly failures: RpcAttemptFailure[],
  ) {
    super(
      `${chain} RPC unavailable for ${method}: ${failures.map((f) => `${f.endpoint} ${f.kind} (${f.message})`).join('; ')}`,
    );
  }
}

const REFUSED = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'NETWORK_ERROR',
]);

interface ErrorShape {
  code?: unknown;
  shortMessage?: string;
  message?: string;
  info?: { responseStatus?: string };
  error?: { code?: unknown; message?: string };
}

/**
 * Maps what ethers (or the socket under it) threw to a kind, or undefined when the node answered
 * and the answer itself is the result (a reverted eth_call): another URL would say the same.
 */
export const classifyRpcError = (err: unknown): RpcErrorKind | undefined => {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === 'CALL_EXCEPTION') return undefined;
  if (REFUSED.has(code)) return 'refused';
  if (code === 'TIMEOUT' || code === 'ETIMEDOUT' || code === 'ABORT_ERR') return 'timeout';
  if (code === 'SERVER_ERROR') {
    const status = e.info?.responseStatus ?? '';
    return /429|599/.test(status) ? 'rate_limited' : 'server_error';
  }
  return 'rpc_error';
};

export const rpcErrorMessage = (err: unknown): string => {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape;
  const text = e.error?.message ?? e.shortMessage ?? e.message ?? String(err);
  return text.slice(0, 200);
};

/** `https://host:port` of a URL, for logs and errors; never its path or query. */
export const endpointLabel = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid-url';
  }
};
