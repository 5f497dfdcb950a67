import { ok } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { MerchantRefParams } from './merchant-ids.js';
import { merchantInfo } from './merchants.js';

export const merchantParams = { getMerchantInfo: MerchantRefParams };

export const merchantRoutes = (ctx: GatewayContext): Pick<GatewayRoutes, 'getMerchantInfo'> => ({
  getMerchantInfo: async ({ params, res }) => {
    ok(res, await merchantInfo(ctx, params.id));
  },
});
