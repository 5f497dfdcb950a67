import { fileURLToPath } from 'node:url';
import { pageCsp, pageSecurityHeaders, startStaticSite } from '@stablepay/platform';

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
 * anywhere. `blob:` serves the invoice PDFs it fetched with the bearer token, nothing else.
 */
export const dashboardCsp = (gatewayUrl: string | undefined): string =>
  pageCsp([
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${gatewayUrl ? ` ${new URL(gatewayUrl).origin}` : ''}`,
    'frame-src blob:',
  ]);

/** Beside the common ones: the legacy framing ban, and no other site may load its files. */
const securityHeaders = (csp: string): Record<string, string> =>
  pageSecurityHeaders(csp, {
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
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
