import { z } from 'zod';
import type { Logger } from '@stablepay/platform';
import type { ChainWatcherMetrics } from '../metrics.js';

/** A field Circle may leave out, or give as null while it is not known yet. */
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const text = z.union([z.string(), z.number()]).transform(String);

/**
 * One message of `GET /v2/messages/{sourceDomain}?transactionHash=`, in every shape Circle's API
 * documents. Before it is signed (`status: "pending_confirmations"`) the attestation is "PENDING"
 * or null, the message "0x" or null, and any field not known yet (eventNonce, delayReason, the
 * decoded message and each of its fields) may be null: such an answer is a reason to wait, never a
 * malformed one. Only `status: "complete"` with hex message and attestation may be minted
 * (signedMessageOf and the bridge-kit step check that).
 */
export const AttestedMessage = z.object({
  message: maybe(z.string()),
  eventNonce: maybe(text),
  attestation: maybe(z.string()),
  cctpVersion: maybe(text),
  status: z.string(),
  delayReason: maybe(z.string()),
  forwardState: maybe(z.string()),
  forwardTxHash: maybe(z.string()),
  decodedMessage: maybe(
    z
      .object({
        sourceDomain: maybe(text),
        destinationDomain: maybe(text),
        nonce: maybe(text),
      })
      .passthrough(),
  ),
});
export type AttestedMessage = z.infer<typeof AttestedMessage>;

const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** Signed and ready to mint: `complete`, with a message and an attestation in hex. */
export const isSigned = (
  m: AttestedMessage,
): m is AttestedMessage & { status: 'complete'; message: string; attestation: string } =>
  m.status === 'complete' && HEX.test(m.message ?? '') && HEX.test(m.attestation ?? '');

const MessagesAnswer = z.object({ messages: maybe(z.array(AttestedMessage)) });

/** Where and why an answer was refused: paths and zod's wording, never the values. */
const issuesOf = (error: z.ZodError) =>
  error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);

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
  /** Where an answer that is refused is reported (the API needs no key, so nothing secret is sent). */
  logger?: Pick<Logger, 'warn'>;
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
      if (!parsed.success) {
        this.opts.logger?.warn('attestation API answer refused', {
          operation: 'messages',
          sourceDomain,
          txHash,
          issues: issuesOf(parsed.error),
        });
        throw new AttestationUnavailable('malformed', 'unexpected answer from the attestation API');
      }
      return { outcome: 'ok', value: parsed.data.messages ?? [] };
    });
  }

  /**
   * POST /v2/reattest/{nonce}: asks for a fresh signature of a fast message whose expiration block
   * has passed (Circle signs it again, as standard once the burn is final). False when the API does
   * not know the nonce; the new message is read back with messagesByTransaction. The nonce is sent
   * as the V2 message carries it and as Iris reports it in `eventNonce`: the bytes32 in lower-case
   * hex, `0x` and 64 digits (Circle's example answer shows a V1-style decimal nonce; the devnet
   * accepts both forms).
   */
  reattest(nonce: string): Promise<boolean> {
    if (!BYTES32.test(nonce)) throw new TypeError(`not a V2 message nonce (bytes32 hex): ${nonce}`);
    nonce = nonce.toLowerCase();
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
      // Circle's refusals say why in `{error}` or `{message}`; a short excerpt is enough to act on.
      const why = (await res.text().catch(() => '')).slice(0, 200);
      if (res.status < 500)
        this.opts.logger?.warn('attestation API refused a request', {
          method,
          path,
          status: res.status,
          why,
        });
      throw new AttestationUnavailable('server', `attestation API answered ${res.status}`);
    }
    try {
      return await res.json();
    } catch {
      this.opts.logger?.warn('attestation API answer refused', { method, path, issues: ['not JSON'] });
      throw new AttestationUnavailable('malformed', 'attestation API answered something that is not JSON');
    }
  }
}
