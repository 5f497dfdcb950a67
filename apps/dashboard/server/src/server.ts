import { fileURLToPath } from 'node:url';
import { startStaticSite } from '@stablepay/platform';

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

/** The app's build folder beside this server's (apps/dashboard/dist), from any cwd. */
export const defaultDashboardDir = (): string => fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * The dashboard's Content-Security-Policy: only its own files run, it talks to the gateway alone,
 * it is never framed (clickjacking of refunds and key revocations), and it submits no form
 * anywhere. `blob:` serves the invoice PDFs it fetched with the bearer token, nothing else. Images
 * come from here, from the gateway (the merchant's logo, which the gateway serves itself) and as
 * `data:` (a logo's preview before it is uploaded).
 */
export const dashboardCsp = (gatewayUrl: string | undefined): string => {
  const gateway = gatewayUrl ? ` ${new URL(gatewayUrl).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${gateway}`,
    "font-src 'self'",
    `connect-src 'self'${gateway}`,
    'frame-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
};

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
  let config: DashboardRuntimeConfig | undefined;
  const site = await startStaticSite({
    dir: opts.dir ?? defaultDashboardDir(),
    host: opts.host,
    port: opts.port,
    notBuiltMessage: 'The dashboard is not built: run `npm run build`.',
    securityHeaders: () => securityHeaders(dashboardCsp(config?.gatewayUrl)),
    runtimeConfig: () => config,
    textHeaders: { 'cache-control': 'no-store' },
  });
  return {
    url: site.url,
    configure(next) {
      config = next;
    },
    stop: site.stop,
  };
};
