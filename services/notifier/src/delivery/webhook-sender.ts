import type { IncomingHttpHeaders } from 'node:http';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { webhookHeaders, type EndpointKeys } from '../webhooks/signature.js';
import { parseRetryAfter } from './retry-schedule.js';
import { guardedLookup } from './ssrf/guarded-lookup.js';
import { UrlRejected, checkUrlWithoutDns, type Resolver, type UrlPolicy } from './ssrf/url-policy.js';
import { postOnce } from './post-once.js';
import { describeSendError } from './send-errors.js';

/** Bytes of the receiver's answer that are read at most; the rest is never buffered. */
export const RESPONSE_READ_LIMIT = 2048;
/** Characters of it kept in the log. */
export const RESPONSE_EXCERPT_CHARS = 1024;

export interface WebhookRequest {
  url: string;
  body: string;
  /** The endpoint's secret, or its HMAC keys (SigningKeys). */
  secret: string | EndpointKeys;
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

/** Where a request goes, as undici's dispatch takes it. */
interface Target {
  origin: string;
  path: string;
}

export interface WebhookSenderOptions {
  timeoutMs: number;
  policy: UrlPolicy;
  resolve: Resolver;
  /** Extra trusted CA (PEM) for test receivers with self-signed certificates. */
  extraCaPem?: string;
}

const outcomeError = (status: number, location: string | undefined): string | null => {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) {
    return `redirect not followed (HTTP ${status}${location ? ` to ${location.slice(0, 200)}` : ''})`;
  }
  return `HTTP ${status}`;
};

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
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
  /**
   * What checkUrlWithoutDns made of each endpoint URL: it depends only on the URL and the policy,
   * both fixed, so an endpoint's URL is parsed and judged once, not once per request.
   */
  private readonly checkedUrls = new Map<string, Target | string>();

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
    const url = this.checkUrl(req.url);
    if (typeof url === 'string') {
      return { ok: false, status: null, timeMs: 0, error: `blocked: ${url}`, excerpt: null };
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
      const answer = await postOnce(
        this.agent,
        url,
        headers,
        req.body,
        this.opts.timeoutMs,
        RESPONSE_READ_LIMIT,
      );
      const { status } = answer;
      const retryAfterMs =
        status === 429 || status === 503 ? parseRetryAfter(header(answer.headers, 'retry-after')) : undefined;
      return {
        ok: status >= 200 && status < 300,
        status,
        timeMs: Math.round(answer.headersAt - started),
        error: outcomeError(status, header(answer.headers, 'location')),
        excerpt: answer.body && answer.body.toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS),
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

  /** The checked URL, or why it is refused. */
  private checkUrl(raw: string): Target | string {
    let checked = this.checkedUrls.get(raw);
    if (checked === undefined) {
      try {
        const url = checkUrlWithoutDns(raw, this.opts.policy);
        checked = { origin: url.origin, path: `${url.pathname}${url.search}` };
      } catch (err) {
        checked = err instanceof UrlRejected ? err.message : 'invalid URL';
      }
      if (this.checkedUrls.size >= 10_000) this.checkedUrls.clear();
      this.checkedUrls.set(raw, checked);
    }
    return checked;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
