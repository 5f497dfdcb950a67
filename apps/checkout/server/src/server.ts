import { fileURLToPath } from 'node:url';
import { pageCsp, pageSecurityHeaders, startStaticSite } from '@stablepay/platform';
import { embedFraming, type FrameAncestors } from './embed-framing.js';

export { checkoutConfigSchema } from './config.js';

/** What the page learns at run time: one build serves every deployment. */
export interface CheckoutRuntimeConfig {
  gatewayUrl: string;
}

export interface CheckoutServerOptions {
  /** The built app (apps/checkout/dist by default). */
  dir?: string;
  host: string;
  port: number;
  /** Origins whose pages may frame the widget without a checkout session (WIDGET_ORIGINS). */
  widgetOrigins?: readonly string[];
  /**
   * The gateway as this server reaches it, to read a session's return and cancel URLs (who may frame
   * the widget for that session); default: the configured gatewayUrl.
   */
  gatewayLookupUrl?: string;
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

/** The app's build folder beside this server's (apps/checkout/dist), from any cwd. */
export const defaultCheckoutDir = (): string => fileURLToPath(new URL('../../dist', import.meta.url));

const origin = (url: string): string => new URL(url).origin;

/**
 * The checkout page's Content-Security-Policy: nothing but its own files run, and it talks only to
 * the origins the deployment names. The hosted page may not be framed (clickjacking of the pay
 * button); embed.html, what the widget frames on a shop's page, only by the origin `frameAncestors`
 * names (see embed-framing.ts).
 */
export const checkoutCsp = (
  connectTo: readonly string[],
  frameAncestors: FrameAncestors = "'none'",
  gatewayUrl?: string,
): string =>
  pageCsp(
    [
      // The merchant's logo, which the gateway itself serves (never a third party's URL).
      `img-src 'self'${gatewayUrl ? ` ${origin(gatewayUrl)}` : ''}`,
      "font-src 'self'",
      `connect-src 'self' ${[...new Set(connectTo.map(origin))].join(' ')}`.trim(),
    ],
    frameAncestors,
  );

/**
 * The example shop page served beside the widget: it runs the widget's script and frames embed.html
 * from this origin, the two things a shop's own policy must allow for the checkout's origin.
 */
export const widgetExampleCsp = (): string => pageCsp(["frame-src 'self'"]);

/**
 * Serves the built checkout page and widget as static files with a strict CSP, plus the run-time
 * config.json. Hashed assets are cached for good; HTML and config are always fetched again so a new
 * deployment takes effect at the next load.
 */
export const startCheckoutServer = async (opts: CheckoutServerOptions): Promise<CheckoutServer> => {
  let config: CheckoutRuntimeConfig | undefined;
  let connectTo: readonly string[] = [];
  const frameAncestors = embedFraming({
    widgetOrigins: opts.widgetOrigins ?? [],
    gatewayUrl: () => opts.gatewayLookupUrl ?? config?.gatewayUrl,
  });
  const site = await startStaticSite({
    dir: opts.dir ?? defaultCheckoutDir(),
    host: opts.host,
    port: opts.port,
    notBuiltMessage: 'The checkout app is not built: run `npm run build`.',
    securityHeaders: async (path, request) => {
      if (path === '/widget-example.html') return pageSecurityHeaders(widgetExampleCsp());
      if (path === '/embed.html')
        return pageSecurityHeaders(checkoutCsp(connectTo, await frameAncestors(request), config?.gatewayUrl));
      return pageSecurityHeaders(checkoutCsp(connectTo, "'none'", config?.gatewayUrl));
    },
    runtimeConfig: () => config,
    // The widget's host pages never read it; the page itself is same-origin.
    configHeaders: { 'access-control-allow-origin': '*' },
    // widget.js is loaded by merchants' pages from another origin.
    fileHeaders: (relative): Record<string, string> =>
      relative.startsWith('widget') ? { 'access-control-allow-origin': '*' } : {},
  });
  return {
    url: site.url,
    configure(next, origins) {
      config = next;
      connectTo = origins;
    },
    stop: site.stop,
  };
};
