import { ok } from '@stablepay/platform';
import { merchantInfo, merchantWallet } from '../../domain/merchants.js';
import type { GatewayContext } from '../../gateway-context.js';
import type { GatewayHandlers } from '../handlers.js';

/** `:id` is the public merchant id (the internal UUID is accepted too); anything else is 404. */
export const merchantHandlers = (ctx: GatewayContext): GatewayHandlers => ({
  getMerchantInfo: async (req, res) => {
    ok(res, await merchantInfo(ctx, String(req.params.id)));
  },
  getMerchantWallet: async (req, res) => {
    ok(res, await merchantWallet(ctx, String(req.params.id)));
  },
});
