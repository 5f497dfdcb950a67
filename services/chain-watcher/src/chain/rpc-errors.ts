import { AbiCoder, Interface, dataSlice } from 'ethers';

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

/** What a contract said when it refused a call: a message, and the raw revert data when the node gave it. */
export interface Revert {
  message: string;
  data: string | null;
}

const ERROR_STRING = '0x08c379a0';
const PANIC = '0x4e487b71';

/*
 * OpenZeppelin 5 tokens refuse with custom errors where FiatToken uses strings; naming them lets a
 * token of that kind be judged by the same rules (see tokenRefusal).
 */
const KNOWN_CUSTOM_ERRORS = new Interface([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidSender(address sender)',
  'error EnforcedPause()',
]);

interface RevertShape {
  code?: unknown;
  data?: unknown;
  reason?: unknown;
  shortMessage?: string;
  info?: { error?: { message?: unknown; data?: unknown } };
  error?: { message?: unknown; data?: unknown };
}

const decodeRevertData = (data: string): string => {
  const selector = data.slice(0, 10).toLowerCase();
  try {
    if (selector === ERROR_STRING) {
      return AbiCoder.defaultAbiCoder().decode(['string'], dataSlice(data, 4))[0] as string;
    }
    if (selector === PANIC) {
      const code = AbiCoder.defaultAbiCoder().decode(['uint256'], dataSlice(data, 4))[0] as bigint;
      return `panic 0x${code.toString(16)}`;
    }
    const custom = KNOWN_CUSTOM_ERRORS.parseError(data);
    if (custom) return custom.name;
  } catch {
    // Malformed revert data: the selector is all there is to say.
  }
  return `custom error ${selector}`;
};

/**
 * The refusal in a reverted eth_call or eth_estimateGas, decoded from the revert data (Error(string),
 * Panic, or one of the known custom errors) or, from nodes that give no data, taken from the node's
 * "execution reverted: ..." message. Undefined when the error is not a revert (an RPC failure).
 */
export const revertOf = (err: unknown): Revert | undefined => {
  const e = (typeof err === 'object' && err !== null ? err : {}) as RevertShape;
  if (e.code !== 'CALL_EXCEPTION') return undefined;
  const candidates = [e.data, e.info?.error?.data, e.error?.data];
  const data = candidates.find((d): d is string => typeof d === 'string' && /^0x[0-9a-fA-F]{8,}$/.test(d));
  if (data) return { message: decodeRevertData(data), data };
  if (typeof e.reason === 'string' && e.reason) return { message: e.reason, data: null };
  const nodeMessage = [e.info?.error?.message, e.error?.message].find((m) => typeof m === 'string');
  const said =
    typeof nodeMessage === 'string' ? /execution reverted:?\s*(.+)/i.exec(nodeMessage)?.[1] : undefined;
  return { message: said?.trim() || 'execution reverted', data: null };
};
