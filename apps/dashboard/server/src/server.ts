import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the dashboard learns at run time: one build serves every deployment. */
export interface DashboardRuntimeConfig {
  gatewayUrl: string;
}

export interface DashboardServerOptions {
  /** The built app (apps/dashboard/dist by default). */
  dir?: string;
  host: string;
  port: number;
}

export interface DashboardServer {
  url: string;
  /** Sets what config.json answers and the gateway the page may talk to. Until then config answers 503. */
  configure(config: DashboardRuntimeConfig): void;
  stop(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** The app's build folder beside this server's (apps/dashboard/dist), from any cwd. */
export const defaultDashboardDir = (): string => fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * The dashboard's Content-Security-Policy: only its own files run, it talks to the gateway alone,
 * it is never framed (clickjacking of refunds and key revocations), and it submits no form
 * anywhere. `blob:` serves the invoice PDFs it fetched with the bearer token, nothing else.
 */
export const dashboardCsp = (gatewayUrl: string | undefined): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${gatewayUrl ? ` ${new URL(gatewayUrl).origin}` : ''}`,
    'frame-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

const securityHeaders = (csp: string): Record<string, string> => ({
  'content-security-policy': csp,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
});

/**
 * Serves the built dashboard as static files with a strict CSP, plus the run-time config.json.
 * Hashed assets are cached for good; HTML and config are fetched again at every load, so a new
 * deployment takes effect at once.
 */
export const startDashboardServer = async (opts: DashboardServerOptions): Promise<DashboardServer> => {
  const dir = opts.dir ?? defaultDashboardDir();
  let config: DashboardRuntimeConfig | undefined;

  const send = (
    res: ServerResponse,
    status: number,
    body: string | Buffer,
    headers: Record<string, string>,
  ) => {
    res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };
  const text = (res: ServerResponse, status: number, body: string, headers: Record<string, string>) =>
    send(res, status, body, { ...headers, 'content-type': TYPES['.txt']!, 'cache-control': 'no-store' });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://dashboard.invalid').pathname);
    const headers = securityHeaders(dashboardCsp(config?.gatewayUrl));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, 'Method Not Allowed', { ...headers, allow: 'GET, HEAD' });
    }
    if (path === '/healthz') return text(res, 200, 'ok', headers);
    if (path === '/readyz') {
      const ready = config !== undefined && existsSync(join(dir, 'index.html'));
      return text(res, ready ? 200 : 503, ready ? 'ready' : 'not ready', headers);
    }
    if (path === '/config.json') {
      if (!config) return send(res, 503, '{"error":"starting"}', { ...headers, 'retry-after': '1' });
      return send(res, 200, JSON.stringify(config), {
        ...headers,
        'content-type': TYPES['.json']!,
        'cache-control': 'no-store',
      });
    }
    const relative = path === '/' ? 'index.html' : path.slice(1);
    const file = normalize(join(dir, relative));
    if (!file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      if (!existsSync(join(dir, 'index.html')))
        return text(res, 503, 'The dashboard is not built: run `npm run build`.', headers);
      return text(res, 404, 'Not Found', headers);
    }
    const hashed = relative.startsWith('assets/');
    send(res, 200, readFileSync(file), {
      ...headers,
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
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
    configure(next) {
      config = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
