import { z } from 'zod';
import type { ChainWatcherMetrics } from '../metrics.js';

/** One message of `GET /v2/messages/{sourceDomain}?transactionHash=`, as Circle's API returns it. */
export const AttestedMessage = z.object({
  message: z.string(),
  eventNonce: z.string().optional(),
  attestation: z.string(),
  cctpVersion: z.union([z.number(), z.string()]).optional(),
  status: z.string(),
  delayReason: z.string().nullable().optional(),
  forwardState: z.string().nullable().optional(),
  forwardTxHash: z.string().nullable().optional(),
  decodedMessage: z
    .object({
      sourceDomain: z.string(),
      destinationDomain: z.string(),
      nonce: z.string(),
    })
    .passthrough()
    .nullable()
    .optional(),
});
export type AttestedMessage = z.infer<typeof AttestedMessage>;

const MessagesAnswer = z.object({ messages: z.array(AttestedMessage) });

/** Why the attestation API gave no answer; every kind is retried later, never in a loop. */
export class AttestationUnavailable extends Error {
  override readonly name = 'AttestationUnavailable';
  constructor(
    readonly kind: 'rate_limited' | 'server' | 'timeout' | 'network' | 'malformed',
    message: string,
    /** how long to keep away: Circle refuses every request for 5 minutes after a 429 */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface AttestationApiOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Back-off after a 429 when the answer names none (Circle's lockout is 5 minutes). */
  rateLimitBackoffMs?: number;
  metrics?: Pick<ChainWatcherMetrics, 'attestationRequests' | 'attestationDuration'>;
}

type Operation = 'messages' | 'reattest';

/**
 * Client of Circle's attestation API (Iris) or any service with its paths and JSON. It says
 * "not seen yet" (404) apart from "cannot tell now" (429, 5xx, time-out), which the caller retries
 * with back-off.
 */
export class AttestationApi {
  constructor(private readonly opts: AttestationApiOptions) {}

  /** The messages a burn transaction sent, by log index; an empty list until the burn is seen. */
  messagesByTransaction(sourceDomain: number, txHash: string): Promise<AttestedMessage[]> {
    return this.observed('messages', async () => {
      const body = await this.get(
        `v2/messages/${sourceDomain}?transactionHash=${encodeURIComponent(txHash)}`,
      );
      if (body === undefined) return { outcome: 'not_found', value: [] };
      const parsed = MessagesAnswer.safeParse(body);
      if (!parsed.success)
        throw new AttestationUnavailable('malformed', 'unexpected answer from the attestation API');
      return { outcome: 'ok', value: parsed.data.messages };
    });
  }

  /**
   * POST /v2/reattest/{nonce}: asks for a fresh signature of a fast message whose expiration block
   * has passed (Circle signs it again, as standard once the burn is final). False when the API does
   * not know the nonce; the new message is read back with messagesByTransaction.
   */
  reattest(nonce: string): Promise<boolean> {
    return this.observed('reattest', async () =>
      (await this.request('POST', `v2/reattest/${encodeURIComponent(nonce)}`)) === undefined
        ? { outcome: 'not_found', value: false }
        : { outcome: 'ok', value: true },
    );
  }

  /** Counts one call by its outcome (ok, not_found, or why there was no answer) and times it. */
  private async observed<T>(
    operation: Operation,
    call: () => Promise<{ outcome: 'ok' | 'not_found'; value: T }>,
  ): Promise<T> {
    const metrics = this.opts.metrics;
    const done = metrics?.attestationDuration.startTimer({ operation });
    try {
      const { outcome, value } = await call();
      metrics?.attestationRequests.inc({ operation, outcome });
      return value;
    } catch (err) {
      const outcome = err instanceof AttestationUnavailable ? err.kind : 'error';
      metrics?.attestationRequests.inc({ operation, outcome });
      throw err;
    } finally {
      done?.();
    }
  }

  private get(path: string): Promise<unknown> {
    return this.request('GET', path);
  }

  private async request(method: 'GET' | 'POST', path: string): Promise<unknown> {
    const url = new URL(path, this.opts.baseUrl.endsWith('/') ? this.opts.baseUrl : `${this.opts.baseUrl}/`);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new AttestationUnavailable(
        timedOut ? 'timeout' : 'network',
        `attestation API ${timedOut ? 'timed out' : 'unreachable'}`,
      );
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return undefined;
    }
    if (res.status === 429) {
      await res.body?.cancel();
      const retryAfter = Number(res.headers.get('retry-after'));
      throw new AttestationUnavailable(
        'rate_limited',
        'attestation API rate limit reached',
        Number.isFinite(retryAfter) && retryAfter > 0
          ? retryAfter * 1000
          : (this.opts.rateLimitBackoffMs ?? 300_000),
      );
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new AttestationUnavailable('server', `attestation API answered ${res.status}`);
    }
    try {
      return await res.json();
    } catch {
      throw new AttestationUnavailable('malformed', 'attestation API answered something that is not JSON');
    }
  }
}
