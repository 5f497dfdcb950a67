import {
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Transform } from 'node:stream';
import { AppError, inRequestContext, type InternalClaims, type Logger } from '@stablepay/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { payloadTooLarge } from '../perimeter/body.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './headers.js';
import type { Upstream } from './upstreams.js';

export interface ForwardOptions {
  /** The internal token for the caller's claims (see internalTokenSigner). */
  internalToken: (claims: InternalClaims) => string;
  /** No upstream activity (connect, headers, body bytes) for this long counts as unavailable. */
  timeoutMs: number;
  maxBodyBytes: number;
  logger: Logger;
}

/** Seconds a client is asked to wait after the service behind a route failed to answer. */
export const UPSTREAM_RETRY_AFTER_SECONDS = 5;
/** Lifetime of the internal token a forwarded request carries. */
export const INTERNAL_TOKEN_TTL_SECONDS = 60;

class BodyTooLargeError extends Error {}

/** RFC 9112 §6.3: a request has a body only when it says so with Content-Length or Transfer-Encoding. */
const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** Passes bytes through until `max`, then reports and drops the rest. */
const byteLimit = (max: number, onExceeded: () => void): Transform => {
  let seen = 0;
  let exceeded = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max && !exceeded) {
        exceeded = true;
        onExceeded();
      }
      callback(null, exceeded ? undefined : chunk);
    },
  });
};

const upstreamPath = (req: Request, canonicalPath: string | undefined): string => {
  if (canonicalPath === undefined) return req.originalUrl;
  const query = req.originalUrl.indexOf('?');
  return query < 0 ? canonicalPath : canonicalPath + req.originalUrl.slice(query);
};

/** The upstream request: the client's, its credentials replaced by a short-lived internal token. */
const upstreamRequestOptions = (
  upstream: Upstream,
  req: Request,
  res: Response,
  opts: ForwardOptions,
): RequestOptions => {
  const claims = res.locals.auth ?? { caller: 'public' as const };
  const headers = upstreamRequestHeaders(req.headers, {
    internalToken: opts.internalToken(claims),
    requestId: res.locals.requestId ?? '',
    correlationId: res.locals.correlationId ?? res.locals.requestId ?? '',
    clientIp: req.ip ?? req.socket.remoteAddress ?? '',
    protocol: req.protocol,
    host: req.get('host'),
  });
  const buffered = res.locals.rawBody;
  if (buffered) headers['content-length'] = String(buffered.length);
  const { url, agent } = upstream;
  return {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port || undefined,
    // The route's path with canonical parameters when the router worked it out, else the path as
    // received; the query exactly as received. Never resolved as a URL (`//host/...` stays a path).
    path: url.pathname.replace(/\/$/, '') + upstreamPath(req, res.locals.canonicalPath),
    method: req.method,
    headers,
    agent,
    timeout: opts.timeoutMs,
  };
};

/** How a forward that went wrong is answered: a cut connection, 413, or 503 with Retry-After. */
const failureAnswer =
  (upstream: Upstream, req: Request, res: Response, next: NextFunction, logger: Logger) =>
  (err: Error): void => {
    if (res.writableEnded || res.destroyed) return;
    if (res.headersSent) {
      // Half an answer was sent: cut the connection so the client sees a broken response, not a short one.
      res.destroy(err);
      return;
    }
    if (err instanceof BodyTooLargeError) {
      res.setHeader('Connection', 'close');
      return next(payloadTooLarge());
    }
    logger.warn('upstream unavailable', {
      service: upstream.service,
      method: req.method,
      route: req.route?.path,
      error: (err as NodeJS.ErrnoException).code ?? err.message,
    });
    next(new AppError('unavailable', 'Service unavailable', [], UPSTREAM_RETRY_AFTER_SECONDS));
  };

interface Exchange {
  start(): ClientRequest;
  /** Stops the request in flight, whichever attempt it is. */
  abort(): void;
}

/** The request to the service and its answer streamed to the client. */
const upstreamExchange = (
  options: RequestOptions,
  res: Response,
  fail: (err: Error) => void,
  retry: { safe: boolean; timeoutMs: number },
): Exchange => {
  let current: ClientRequest | undefined;
  const send = (mayRetry: boolean): ClientRequest => {
    // Started in the request's context wherever this runs from (a body read, a retry on a socket
    // error), so the request's timing counts the call and its log lines carry its ids.
    const proxyReq = inRequestContext(res, () =>
      (options.protocol === 'https:' ? httpsRequest : httpRequest)(options),
    );
    current = proxyReq;
    proxyReq.on('timeout', () => proxyReq.destroy(new Error(`no answer within ${retry.timeoutMs} ms`)));
    proxyReq.on('error', (err: NodeJS.ErrnoException) => {
      // A pooled connection the service closed just as it was reused: a safe request without a
      // body is sent once more, on a fresh connection.
      if (mayRetry && retry.safe && proxyReq.reusedSocket && err.code === 'ECONNRESET' && !res.headersSent) {
        send(false).end();
        return;
      }
      fail(err);
    });
    proxyReq.on('response', (answer: IncomingMessage) => {
      res.status(answer.statusCode ?? 502);
      for (const [name, value] of Object.entries(clientResponseHeaders(answer.headers))) {
        if (value !== undefined) res.setHeader(name, value);
      }
      answer.on('error', (err) => res.destroy(err));
      answer.pipe(res);
    });
    return proxyReq;
  };
  return { start: () => send(true), abort: () => current?.destroy() };
};

/** The request body: the bytes already read, none, or the client's stream up to `maxBodyBytes`. */
const sendBody = (
  req: Request,
  proxyReq: ClientRequest,
  buffered: Buffer | undefined,
  maxBodyBytes: number,
) => {
  if (buffered) {
    proxyReq.end(buffered);
    return;
  }
  if (!hasBody(req)) {
    proxyReq.end();
    return;
  }
  const limiter = byteLimit(maxBodyBytes, () => {
    req.unpipe(limiter);
    req.resume();
    proxyReq.destroy(new BodyTooLargeError('request body too large'));
  });
  req.pipe(limiter).pipe(proxyReq);
};

/**
 * Forwards the request to the owning service: same method, path and query string, the body and
 * the answer streamed (never buffered: invoices are PDFs), the client's credentials replaced by
 * a short-lived internal token that names the merchant and the kind of caller. A service that
 * refuses the connection or stays silent for `timeoutMs` yields 503 with Retry-After.
 */
export const forwardTo =
  (upstream: Upstream, opts: ForwardOptions): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    if (Number(req.header('content-length') ?? 0) > opts.maxBodyBytes) {
      res.setHeader('Connection', 'close');
      return next(payloadTooLarge());
    }
    const options = upstreamRequestOptions(upstream, req, res, opts);
    const buffered = res.locals.rawBody;
    const bodiless = !buffered && !hasBody(req);
    const exchange = upstreamExchange(options, res, failureAnswer(upstream, req, res, next, opts.logger), {
      safe: bodiless && (req.method === 'GET' || req.method === 'HEAD'),
      timeoutMs: opts.timeoutMs,
    });
    // The client left: stop the upstream work it no longer waits for.
    res.on('close', () => {
      if (!res.writableFinished) exchange.abort();
    });
    sendBody(req, exchange.start(), buffered, opts.maxBodyBytes);
  };
