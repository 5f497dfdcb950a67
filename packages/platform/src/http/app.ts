import { randomUUID } from 'node:crypto';
import express, {
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { runWithContext, type RequestContext } from '../context.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { requireMetricsToken } from './metrics-token.js';
import {
  appendServerTiming,
  beforeHeaders,
  startRequestTiming,
  watchOutgoingCalls,
  type RequestTiming,
} from './server-timing.js';
import type { TrustProxy } from './trusted-proxies.js';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  metrics: Metrics;
  readiness: ReadinessCheck[];
  /** Largest JSON body accepted; larger bodies get 413. */
  bodyLimit?: string;
  /** Express `trust proxy` setting: which peers' X-Forwarded-For is believed. */
  trustProxy?: TrustProxy;
  /** The bearer token /metrics asks for; without one /metrics is not served (404). */
  metricsToken?: string;
  /**
   * Which answers carry this process's Server-Timing entries: `all`, or only those of requests it
   * passed on to another service (`proxied`), for a process that answers the public itself where
   * an answer's timing is kept from depending on the caller's input (sign-in, registration): there
   * the database's share of it would tell what the total hides. Default `all`.
   */
  serverTiming?: 'all' | 'proxied';
  /** Run before the JSON parser (the gateway's proxy must see the raw stream). */
  beforeBody?: RequestHandler[];
}

export interface HttpApp {
  app: Express;
  /** Flip /readyz to 503; called first thing on shutdown. */
  markNotReady(): void;
  /** Adds the 404 and error handlers; call after mounting routes. */
  finalize(): void;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const observeStages = (metrics: Metrics, route: string, timing: RequestTiming): void => {
  for (const [stage, ms] of timing.stages()) metrics.requestStage.observe({ route, stage }, ms / 1000);
};

/**
 * Every request: its id and correlation id, its context, its duration by route, and where its time
 * went (a Server-Timing header and the stage histogram).
 */
const trackRequest =
  (opts: Pick<HttpAppOptions, 'service' | 'metrics' | 'serverTiming'>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const incomingCorrelation = req.header('x-correlation-id');
    const correlationId =
      incomingCorrelation && REQUEST_ID.test(incomingCorrelation) ? incomingCorrelation : requestId;
    res.locals.requestId = requestId;
    res.locals.correlationId = correlationId;
    res.setHeader('X-Request-Id', requestId);
    const context = { requestId, correlationId };
    res.locals.requestContext = context;
    const timing = startRequestTiming(context);
    beforeHeaders(res, () => {
      if (opts.serverTiming !== 'proxied' || timing.calledUpstream)
        appendServerTiming(res, timing.header(opts.service));
    });
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The route template, never the raw path, keeps label cardinality bounded.
      const route = req.route?.path
        ? `${req.baseUrl}${String(req.route.path)}`
        : (res.locals.routeLabel ?? 'unmatched');
      opts.metrics.httpDuration.observe(
        { method: req.method, route, status: String(res.statusCode) },
        seconds,
      );
      observeStages(opts.metrics, route, timing);
    });
    runWithContext(context, next);
  };

/**
 * Runs `fn` in the context of the request `res` answers. A middleware that resumes from a stream's
 * or a client's callback (reading a body, a shared rate-limit store) continues outside the request's
 * context; what it starts then (an upstream call the request's timing should count, a log line that
 * should carry its ids) is started through this.
 */
export const inRequestContext = <T>(res: Response, fn: () => T): T =>
  res.locals.requestContext ? runWithContext(res.locals.requestContext, fn) : fn();

export const createHttpApp = (opts: HttpAppOptions): HttpApp => {
  const app = express();
  app.disable('x-powered-by');
  watchOutgoingCalls();
  app.set('trust proxy', opts.trustProxy ?? false);
  let ready = true;

  app.use(trackRequest(opts));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: opts.service });
  });

  app.get('/readyz', async (_req, res) => {
    if (!ready) {
      res.status(503).json({ status: 'shutting_down', service: opts.service });
      return;
    }
    const results: Record<string, string> = {};
    let ok = true;
    await Promise.all(
      opts.readiness.map(async (r) => {
        try {
          await r.check();
          results[r.name] = 'ok';
        } catch (err) {
          ok = false;
          results[r.name] = 'failing';
          opts.logger.warn('readiness check failed', { check: r.name, err });
        }
      }),
    );
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready', checks: results });
  });

  if (opts.metricsToken) {
    app.get('/metrics', requireMetricsToken(opts.metricsToken), async (_req, res) => {
      res.setHeader('Content-Type', opts.metrics.registry.contentType);
      res.send(await opts.metrics.registry.metrics());
    });
  }

  for (const h of opts.beforeBody ?? []) app.use(h);
  app.use(express.json({ limit: opts.bodyLimit ?? '64kb', strict: false }));

  return {
    app,
    markNotReady: () => {
      ready = false;
    },
    finalize: () => {
      app.use(notFoundHandler);
      app.use(errorHandler(opts.logger));
    },
  };
};

declare module 'express-serve-static-core' {
  interface Locals {
    requestId?: string;
    correlationId?: string;
    routeLabel?: string;
    /**
     * The request's context, for work started from a callback that runs outside it (a stream's
     * events, a client's socket): see `inRequestContext`.
     */
    requestContext?: RequestContext;
  }
}
