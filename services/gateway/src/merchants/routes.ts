import { ok } from '@stablepay/platform';
import { z } from 'zod';
import { merchantInfo, merchantWallet } from './merchants.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';

/**
 * The catalogue names a merchant by its public id; the gateway also resolves the internal UUID
 * (links made with it keep working) and answers any other text like an unknown merchant (404), so
 * these routes take the id as text and the domain decides.
 */
const MerchantRefParams = z.object({ id: z.string() });
export const merchantParams = { getMerchantInfo: MerchantRefParams, getMerchantWallet: MerchantRefParams };

export const merchantRoutes = (ctx: GatewayContext): Pick<GatewayRoutes, keyof typeof merchantParams> => ({
  getMerchantInfo: async ({ params, res }) => {
    ok(res, await merchantInfo(ctx, params.id));
  },
  getMerchantWallet: async ({ params, res }) => {
    ok(res, await merchantWallet(ctx, params.id));
  },
});
