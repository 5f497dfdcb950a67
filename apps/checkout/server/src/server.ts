import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the page learns at run time: one build serves every deployment. */
export interface CheckoutRuntimeConfig {
  gatewayUrl: string;
}

export interface CheckoutServerOptions {
  /** The built app (apps/checkout/dist by default). */
  dir?: string;
  host: string;
  port: number;
}

export interface CheckoutServer {
  url: string;
  /**
   * Sets what config.json answers and the origins the page may connect to (the gateway, the chains'
   * RPC endpoints, the attestation API). Until then the page's config answers 503.
   */
  configure(config: CheckoutRuntimeConfig, connectTo: readonly string[]): void;
  stop(): Promise<void>;
}

const TYPES: Record<string, string> = {
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

/** The app's build folder beside this server's (apps/checkout/dist), from any cwd. */
export const defaultCheckoutDir = (): string => fileURLToPath(new URL('../../dist', import.meta.url));

const origin = (url: string): string => new URL(url).origin;

/**
 * The checkout page's Content-Security-Policy: nothing but its own files run, and it talks only to
 * the origins the deployment names. The hosted page may not be framed (clickjacking of the pay
 * button); embed.html is what the widget frames on merchants' sites, so any ancestor may frame it.
 */
export const checkoutCsp = (connectTo: readonly string[], framable: boolean): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    `connect-src 'self' ${[...new Set(connectTo.map(origin))].join(' ')}`.trim(),
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${framable ? '*' : "'none'"}`,
  ].join('; ');

const securityHeaders = (csp: string): Record<string, string> => ({
  'content-security-policy': csp,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
});

/**
 * Serves the built checkout page and widget as static files with a strict CSP, plus the run-time
 * config.json. Hashed assets are cached for good; HTML and config are always fetched again so a new
 * deployment takes effect at the next load.
 */
export const startCheckoutServer = async (opts: CheckoutServerOptions): Promise<CheckoutServer> => {
  const dir = opts.dir ?? defaultCheckoutDir();
  let config: CheckoutRuntimeConfig | undefined;
  let connectTo: readonly string[] = [];

  const send = (
    res: ServerResponse,
    status: number,
    body: string | Buffer,
    headers: Record<string, string>,
  ) => {
    res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
    // HEAD answers the same headers, the length of the body included, without the body.
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://checkout.invalid');
    const path = decodeURIComponent(url.pathname);
    const framable = path === '/embed.html';
    const headers = securityHeaders(checkoutCsp(connectTo, framable));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, 'Method Not Allowed', { ...headers, allow: 'GET, HEAD' });
    }
    // Probes: alive while the process answers; ready once configured and the app is built.
    if (path === '/healthz') return send(res, 200, 'ok', { ...headers, 'content-type': TYPES['.txt']! });
    if (path === '/readyz') {
      const ready = config !== undefined && existsSync(join(dir, 'index.html'));
      return send(res, ready ? 200 : 503, ready ? 'ready' : 'not ready', {
        ...headers,
        'content-type': TYPES['.txt']!,
        'cache-control': 'no-store',
      });
    }
    if (path === '/config.json') {
      if (!config) return send(res, 503, '{"error":"starting"}', { ...headers, 'retry-after': '1' });
      return send(res, 200, JSON.stringify(config), {
        ...headers,
        'content-type': TYPES['.json']!,
        'cache-control': 'no-store',
        // The widget's host pages never read it; the page itself is same-origin.
        'access-control-allow-origin': '*',
      });
    }
    const relative = path === '/' ? 'index.html' : path.slice(1);
    const file = normalize(join(dir, relative));
    if (!file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      const missing = !existsSync(join(dir, 'index.html'));
      return send(
        res,
        missing ? 503 : 404,
        missing ? 'The checkout app is not built: run `npm run build`.' : 'Not Found',
        { ...headers, 'content-type': TYPES['.txt']! },
      );
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const hashed = relative.startsWith('assets/');
    const body = readFileSync(file);
    send(res, 200, body, {
      ...headers,
      'content-type': type,
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      // widget.js is loaded by merchants' pages from another origin.
      ...(relative.startsWith('widget') ? { 'access-control-allow-origin': '*' } : {}),
    });
  };

  const server: Server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      if (!res.headersSent) send(res, 400, 'Bad Request', { 'content-type': TYPES['.txt']! });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host}:${port}/`,
    configure(next, origins) {
      config = next;
      connectTo = origins;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
