import { ok } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import { MerchantRefParams } from '../merchants/merchant-ids.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { merchantWallet } from './merchant-wallet.js';

export const walletParams = { getMerchantWallet: MerchantRefParams };

export const walletRoutes = (ctx: GatewayContext): Pick<GatewayRoutes, 'getMerchantWallet'> => ({
  getMerchantWallet: async ({ params, res }) => {
    ok(res, await merchantWallet(ctx, params.id));
  },
});
