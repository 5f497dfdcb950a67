import type { StaticRequest } from '@stablepay/platform';

/**
 * Who may frame embed.html, the checkout as the widget shows it on a shop's page. The loader names
 * the shop page's origin in `?origin=`; the page answers its messages to that origin only, and this
 * decides whether that origin may frame it at all:
 * - with `?session=`: the origin of the session's return_url or cancel_url. The shop's server named
 *   those URLs with its API key when it created the session, so they are the shop's own declaration
 *   of where its pages live (Stripe binds an embedded checkout to its session the same way).
 * - with `?merchant=` (no session, anyone may write the URL): only origins the deployment lists in
 *   WIDGET_ORIGINS, since nothing a shop declared says where its pages are.
 * - the checkout's own origin (the example page served beside the widget).
 * Anything else, or an `origin` that is not a bare http(s) origin, may not frame it.
 */
export interface EmbedFramingOptions {
  /** Origins whose pages may open the widget without a session. */
  widgetOrigins: readonly string[];
  /** The gateway as this server reaches it, for a session's public view; undefined: not configured. */
  gatewayUrl(): string | undefined;
  /** How long a session's URLs are remembered (they never change; ms). */
  cacheMs?: number;
  /** Gives up on the gateway after this long, and refuses framing (ms). */
  timeoutMs?: number;
}

export type FrameAncestors = "'none'" | "'self'" | `http://${string}` | `https://${string}`;

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const CACHE_ENTRIES = 10_000;

/** The query's origin when it is exactly `scheme://host[:port]` over http(s), else undefined. */
const bareOrigin = (value: string | null): string | undefined => {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

const originOf = (url: unknown): string | undefined => {
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** The origins a session's return_url and cancel_url name, from the gateway's public view. */
const sessionOrigins = async (gatewayUrl: string, id: string, timeoutMs: number): Promise<string[]> => {
  const res = await fetch(`${gatewayUrl.replace(/\/$/, '')}/checkout/sessions/${id}/public`, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json' },
  });
  if (res.status === 404) return [];
  if (!res.ok) throw new Error(`gateway answered ${res.status}`);
  const body = (await res.json()) as { data?: { return_url?: unknown; cancel_url?: unknown } };
  return [originOf(body.data?.return_url), originOf(body.data?.cancel_url)].filter(
    (o): o is string => o !== undefined,
  );
};

/**
 * The `frame-ancestors` source of one answer of embed.html. Never rejects: a gateway that cannot
 * answer means no framing, and the widget shows that it could not load.
 */
export const embedFraming = (opts: EmbedFramingOptions) => {
  const cache = new Map<string, { origins: string[]; until: number }>();
  const cacheMs = opts.cacheMs ?? 10 * 60_000;
  const listed = new Set(opts.widgetOrigins.map((o) => new URL(o).origin));

  const originsOfSession = async (id: string): Promise<string[]> => {
    const hit = cache.get(id);
    if (hit && hit.until > Date.now()) return hit.origins;
    const gatewayUrl = opts.gatewayUrl();
    if (!gatewayUrl) return [];
    const origins = await sessionOrigins(gatewayUrl, id, opts.timeoutMs ?? 3000);
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(id, { origins, until: Date.now() + cacheMs });
    return origins;
  };

  return async ({ query, host }: StaticRequest): Promise<FrameAncestors> => {
    const origin = bareOrigin(query.get('origin'));
    if (!origin) return "'none'";
    if (new URL(origin).host === host) return "'self'";
    const session = query.get('session');
    try {
      if (session !== null) {
        if (!SESSION_ID.test(session)) return "'none'";
        return (await originsOfSession(session)).includes(origin) ? (origin as FrameAncestors) : "'none'";
      }
    } catch {
      return "'none'";
    }
    return listed.has(origin) ? (origin as FrameAncestors) : "'none'";
  };
};
