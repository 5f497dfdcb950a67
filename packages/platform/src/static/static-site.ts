import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

type Headers = Record<string, string>;

/**
 * The gateway's HSTS (helmet's default), on every answer of both page servers. Browsers honour it only
 * on an answer that came over HTTPS and ignore it over plain HTTP (RFC 6797 §8.1), so it takes hold
 * exactly when the page is served over HTTPS, by a TLS-terminating proxy or otherwise, without the
 * server having to believe a forwarded header about the scheme.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * A page's Content-Security-Policy: nothing runs or styles it but its own files, then the page's own
 * `directives` (what it may load and connect to), and neither a `<base>` that redirects its relative
 * URLs nor a form that posts anywhere. Only the origins `frameAncestors` names may frame it.
 */
export const pageCsp = (directives: readonly string[], frameAncestors = "'none'"): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    ...directives,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

/**
 * The security headers both page servers send with `csp` (HSTS is added to every answer besides);
 * `more` adds a page's own.
 */
export const pageSecurityHeaders = (csp: string, more: Headers = {}): Headers => ({
  'content-security-policy': csp,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  ...more,
});

/** What the security headers of an answer may depend on besides its path. */
export interface StaticRequest {
  /** The query of the request's URL. */
  query: URLSearchParams;
  /** The Host header the browser sent (host and port), as it reached this site. */
  host: string | undefined;
}

export const STATIC_CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const TEXT = STATIC_CONTENT_TYPES['.txt']!;

export interface StaticSiteOptions {
  /** The built app: index.html and its hashed assets/. */
  dir: string;
  host: string;
  port: number;
  /** Named in the answer while the app is not built ("The checkout app is not built: …"). */
  notBuiltMessage: string;
  /**
   * The security headers of every answer to `path`: a CSP that may depend on the path, the query or
   * config, and may need a look-up (which page may frame the widget's document).
   */
  securityHeaders(path: string, request: StaticRequest): Headers | Promise<Headers>;
  /** What /config.json answers; undefined until the deployment configured it (503 until then). */
  runtimeConfig(): unknown;
  /** Added to config.json's answer. */
  configHeaders?: Headers;
  /** Added to a served file's answer, by its path under `dir`. */
  fileHeaders?(relative: string): Headers;
  /** Added to every plain-text answer (probes, 404, not built). */
  textHeaders?: Headers;
}

export interface StaticSite {
  url: string;
  stop(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: string | Buffer, headers: Headers) => {
  res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  // HEAD answers the same headers, the length of the body included, without the body.
  res.end(res.req.method === 'HEAD' ? undefined : body);
};

/** The file a path names inside `dir`, or undefined (outside it, missing, or a folder). */
const fileFor = (dir: string, relative: string): string | undefined => {
  const file = normalize(join(dir, relative));
  return file.startsWith(dir + sep) && existsSync(file) && statSync(file).isFile() ? file : undefined;
};

const handler = (opts: StaticSiteOptions) => {
  const built = () => existsSync(join(opts.dir, 'index.html'));
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://static.invalid');
    const path = decodeURIComponent(url.pathname);
    const headers = {
      ...(await opts.securityHeaders(path, { query: url.searchParams, host: req.headers.host })),
      'strict-transport-security': STRICT_TRANSPORT_SECURITY,
    };
    const text = (status: number, body: string, more: Headers = {}) =>
      send(res, status, body, { ...headers, 'content-type': TEXT, ...opts.textHeaders, ...more });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, 'Method Not Allowed', { ...headers, allow: 'GET, HEAD' });
    }
    // Probes: alive while the process answers; ready once configured and the app is built.
    if (path === '/healthz') return text(200, 'ok');
    if (path === '/readyz') {
      const ready = opts.runtimeConfig() !== undefined && built();
      return text(ready ? 200 : 503, ready ? 'ready' : 'not ready', { 'cache-control': 'no-store' });
    }
    if (path === '/config.json') {
      const config = opts.runtimeConfig();
      if (config === undefined)
        return send(res, 503, '{"error":"starting"}', { ...headers, 'retry-after': '1' });
      return send(res, 200, JSON.stringify(config), {
        ...headers,
        'content-type': STATIC_CONTENT_TYPES['.json']!,
        'cache-control': 'no-store',
        ...opts.configHeaders,
      });
    }
    const relative = path === '/' ? 'index.html' : path.slice(1);
    const file = fileFor(opts.dir, relative);
    if (!file) return built() ? text(404, 'Not Found') : text(503, opts.notBuiltMessage);
    send(res, 200, readFileSync(file), {
      ...headers,
      'content-type': STATIC_CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      // Hashed assets never change under their name; everything else is checked at every load.
      'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...opts.fileHeaders?.(relative),
    });
  };
};

/**
 * Serves a built front end (the checkout page, the dashboard) as static files under the app's
 * security headers, with its run-time config.json and the probes. A new deployment takes effect at
 * the next load: only hashed assets are cached.
 */
export const startStaticSite = async (opts: StaticSiteOptions): Promise<StaticSite> => {
  const handle = handler(opts);
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 400, 'Bad Request', { 'content-type': TEXT });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host}:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
