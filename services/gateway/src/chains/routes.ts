import { ok } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';

/** GET /chains: the deployment's configuration as paying clients need it, the same for everyone. */
export const chainRoutes = (ctx: GatewayContext): Pick<GatewayRoutes, 'getPublicChains'> => ({
  getPublicChains: async ({ res }) => {
    // It changes only with a deployment: a minute of caching spares the rate limit of every page load.
    res.setHeader('Cache-Control', 'public, max-age=60');
    ok(res, ctx.config.publicChains);
  },
});
