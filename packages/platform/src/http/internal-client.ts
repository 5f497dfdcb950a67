import type { z } from 'zod';
import { INTERNAL_TOKEN_HEADER, signInternalToken } from '../auth/internal-token.js';
import { currentContext } from '../context.js';

/** Another service could not answer (down, slow, or answering something else than its contract). */
export class InternalCallError extends Error {
  override readonly name = 'InternalCallError';
  constructor(
    message: string,
    /** the HTTP status, when the service answered */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface InternalCall<S extends z.ZodType> {
  /** The service's name, for messages: `chain-watcher`. */
  service: string;
  baseUrl: string;
  /** Relative to baseUrl, already percent-encoded: `internal/wallets/<id>/balances`. */
  path: string;
  query?: Record<string, string>;
  secret: string;
  timeoutMs: number;
  /** The answer's contract (the whole envelope), and what it describes for messages: `balance`. */
  schema: S;
  what: string;
  /** Statuses that mean "no such thing" and resolve to undefined instead of failing (404). */
  absentOn?: readonly number[];
}

/**
 * GET on another service's internal API with a short-lived service token and the current
 * correlation id; the answer is parsed against its contract. Every failure is an InternalCallError
 * whose message says what went wrong, never a raw fetch or parse error.
 */
export const callInternal = async <S extends z.ZodType>(
  call: InternalCall<S>,
): Promise<z.output<S> | undefined> => {
  const url = new URL(call.path, call.baseUrl.endsWith('/') ? call.baseUrl : `${call.baseUrl}/`);
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {
    accept: 'application/json',
    [INTERNAL_TOKEN_HEADER]: signInternalToken(call.secret, { caller: 'service' }, 60),
  };
  const { correlationId } = currentContext();
  if (correlationId) headers['x-correlation-id'] = correlationId;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(call.timeoutMs) });
  } catch (err) {
    throw new InternalCallError(
      `${call.service} unreachable: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (call.absentOn?.includes(res.status)) {
    await res.body?.cancel();
    return undefined;
  }
  const text = await res.text().catch(() => '');
  if (!res.ok)
    throw new InternalCallError(`${call.service} answered ${res.status}: ${text.slice(0, 200)}`, res.status);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InternalCallError(`${call.service} answered with a body that is not JSON`, res.status);
  }
  const parsed = call.schema.safeParse(body);
  if (!parsed.success)
    throw new InternalCallError(`${call.service} answered with an unexpected ${call.what} shape`, res.status);
  return parsed.data;
};
