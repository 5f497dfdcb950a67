import { StablepayError, errorFromAnswer } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: typeof fetch;
  userAgent?: string;
}

/** Per call: its own idempotency key, timeout, retry budget or abort signal. */
export interface RequestOptions {
  /** For writes: the key the gateway replays the first answer by; one is generated when absent. */
  idempotencyKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
}

export interface Call {
  method: HttpMethod;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** `bytes` for a file answer (an invoice PDF) */
  as?: 'json' | 'bytes';
}

/** Throttling or a server-side failure: the same request may succeed later. */
const retryable = (status: number) => status === 408 || status === 429 || (status >= 500 && status !== 501);
const MAX_WAIT_MS = 60_000;

/** Retry-After in seconds or as an HTTP date, in ms from now. */
export const retryAfterMs = (value: string | null, now = Date.now()): number | undefined => {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** Exponential from half a second, with full jitter, unless the server said how long to wait. */
const backoffMs = (attempt: number, serverSaid: number | undefined): number => {
  if (serverSaid !== undefined) return Math.min(serverSaid, MAX_WAIT_MS);
  const ceiling = Math.min(8_000, 500 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
};

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const queryString = (query: Record<string, unknown> | undefined): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
};

const aborted = (cause: unknown) =>
  new StablepayError({ status: 0, message: 'aborted by the caller', code: 'aborted', cause });

type Outcome<T> =
  { ok: true; value: T } | { ok: false; error: StablepayError; retry: boolean; waitMs?: number };

/**
 * Sends API calls: the key, JSON bodies, one idempotency key for every attempt of a write (so a retry
 * is never a second write), a timeout per attempt, and retries of network errors, timeouts, 429 and
 * 5xx with backoff that honours Retry-After.
 */
export class Transport {
  constructor(private readonly opts: TransportOptions) {}

  async request<T>(call: Call, ro: RequestOptions = {}): Promise<T> {
    const write = call.method !== 'GET';
    const idempotencyKey = write ? (ro.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    const maxRetries = ro.maxRetries ?? this.opts.maxRetries;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt<T>(call, ro, idempotencyKey);
      if (outcome.ok) return outcome.value;
      if (!outcome.retry || attempt >= maxRetries || ro.signal?.aborted) throw outcome.error;
      await sleep(backoffMs(attempt, outcome.waitMs), ro.signal).catch((cause: unknown) => {
        throw aborted(cause);
      });
    }
  }

  private headers(call: Call, idempotencyKey: string | undefined): Record<string, string> {
    return {
      'X-API-Key': this.opts.apiKey,
      Accept: call.as === 'bytes' ? 'application/pdf, application/json' : 'application/json',
      ...(call.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      ...(this.opts.userAgent ? { 'User-Agent': this.opts.userAgent } : {}),
    };
  }

  private async attempt<T>(call: Call, ro: RequestOptions, idempotencyKey?: string): Promise<Outcome<T>> {
    const timeoutMs = ro.timeoutMs ?? this.opts.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = ro.signal ? AbortSignal.any([ro.signal, timeout]) : timeout;
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}${call.path}${queryString(call.query)}`;
    let res: Response;
    let body: unknown;
    try {
      res = await this.opts.fetch(url, {
        method: call.method,
        headers: this.headers(call, idempotencyKey),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
        redirect: 'error',
      });
      body = await readBody(res, call.as);
    } catch (err) {
      if (ro.signal?.aborted) return { ok: false, retry: false, error: aborted(err) };
      const timedOut = timeout.aborted;
      const error = new StablepayError({
        status: 0,
        message: timedOut ? `no answer within ${timeoutMs} ms` : `network error: ${(err as Error).message}`,
        code: timedOut ? 'timeout' : 'network_error',
        cause: err,
      });
      return { ok: false, error, retry: true };
    }
    if (res.ok) return { ok: true, value: unwrap<T>(body) };
    const error = errorFromAnswer(res.status, body, res.headers.get('x-request-id') ?? undefined);
    return {
      ok: false,
      error,
      retry: retryable(res.status),
      waitMs: retryAfterMs(res.headers.get('retry-after')),
    };
  }
}

const readBody = async (res: Response, as: Call['as']): Promise<unknown> => {
  const type = res.headers.get('content-type') ?? '';
  if (res.ok && as === 'bytes' && !type.includes('json')) return new Uint8Array(await res.arrayBuffer());
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** `data` of the success envelope; the bytes of a file; null for an answer with only a message. */
const unwrap = <T>(body: unknown): T => {
  if (body instanceof Uint8Array) return body as T;
  if (typeof body === 'object' && body !== null && 'data' in body) return (body as { data: T }).data;
  return null as T;
};
