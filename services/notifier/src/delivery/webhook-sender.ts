import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, request, type Dispatcher } from 'undici';
import { webhookHeaders } from '../domain/signature.js';
import { parseRetryAfter } from '../domain/retry-schedule.js';
import { guardedLookup } from '../ssrf/guarded-lookup.js';
import { UrlRejected, checkUrlWithoutDns, type Resolver, type UrlPolicy } from '../ssrf/url-policy.js';
import { describeSendError } from './send-errors.js';

/** Bytes of the receiver's answer that are read at most; the rest is never buffered. */
export const RESPONSE_READ_LIMIT = 2048;
/** Characters of it kept in the log. */
export const RESPONSE_EXCERPT_CHARS = 1024;

export interface WebhookRequest {
  url: string;
  body: string;
  secret: string;
  event: string;
  eventId: string;
  isTest: boolean;
}

export interface WebhookResult {
  /** 2xx within the timeout. */
  ok: boolean;
  /** null when no HTTP answer arrived (refused, timeout, TLS, blocked address). */
  status: number | null;
  /** until the status line and headers arrived, or until the failure */
  timeMs: number;
  error: string | null;
  excerpt: string | null;
  /** Retry-After of a 429 or 503, in ms from now. */
  retryAfterMs?: number;
}

export interface WebhookSenderOptions {
  timeoutMs: number;
  policy: UrlPolicy;
  resolve: Resolver;
  /** Extra trusted CA (PEM) for test receivers with self-signed certificates. */
  extraCaPem?: string;
}

const readExcerpt = async (body: Dispatcher.ResponseData['body']): Promise<string | null> => {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_READ_LIMIT) break; // leaving the loop destroys the rest of the stream
    }
  } catch {
    // timed out or reset while reading the body: the status already decided the outcome
  }
  if (size === 0) return null;
  return Buffer.concat(chunks)
    .subarray(0, RESPONSE_READ_LIMIT)
    .toString('utf8')
    .slice(0, RESPONSE_EXCERPT_CHARS);
};

const outcomeError = (status: number, location: string | undefined): string | null => {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) {
    return `redirect not followed (HTTP ${status}${location ? ` to ${location.slice(0, 200)}` : ''})`;
  }
  return `HTTP ${status}`;
};

const header = (headers: Dispatcher.ResponseData['headers'], name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Sends signed webhook requests. Every connection goes through the guarded lookup (the address
 * actually connected to is the one checked); IP-literal URLs, which never reach a lookup, are
 * checked before each request. Redirects are never followed: undici's `request` has no redirect
 * interceptor here, and a 3xx is a failure like any other non-2xx.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly opts: WebhookSenderOptions) {
    this.agent = new Agent({
      connect: {
        lookup: guardedLookup(opts.policy, opts.resolve),
        timeout: opts.timeoutMs,
        // Built once: a context per connection would parse every root certificate again.
        ...(opts.extraCaPem
          ? { secureContext: createSecureContext({ ca: [...rootCertificates, opts.extraCaPem] }) }
          : {}),
      },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
    });
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  async send(req: WebhookRequest): Promise<WebhookResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = checkUrlWithoutDns(req.url, this.opts.policy);
    } catch (err) {
      const message = err instanceof UrlRejected ? err.message : 'invalid URL';
      return { ok: false, status: null, timeMs: 0, error: `blocked: ${message}`, excerpt: null };
    }
    const headers = webhookHeaders({
      secret: req.secret,
      body: req.body,
      event: req.event,
      eventId: req.eventId,
      isTest: req.isTest,
      timestampSeconds: Math.floor(Date.now() / 1000),
    });
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body: req.body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      const timeMs = elapsed();
      const excerpt = await readExcerpt(res.body);
      const status = res.statusCode;
      const retryAfterMs =
        status === 429 || status === 503 ? parseRetryAfter(header(res.headers, 'retry-after')) : undefined;
      return {
        ok: status >= 200 && status < 300,
        status,
        timeMs,
        error: outcomeError(status, header(res.headers, 'location')),
        excerpt,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    } catch (err) {
      return {
        ok: false,
        status: null,
        timeMs: elapsed(),
        error: describeSendError(err, this.opts.timeoutMs),
        excerpt: null,
      };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
