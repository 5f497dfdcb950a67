import { ok } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { requestMeta } from '../perimeter/request-meta.js';
import { serveMerchantLogo } from './logo-route.js';
import { MerchantRefParams } from './merchant-ids.js';
import { merchantInfo } from './merchants.js';
import {
  merchantSettings,
  removeMerchantLogo,
  updateMerchantSettings,
  uploadMerchantLogo,
} from './settings.js';

export const merchantParams = { getMerchantInfo: MerchantRefParams, getMerchantLogo: MerchantRefParams };

type MerchantRoutes = Pick<
  GatewayRoutes,
  | 'getMerchantInfo'
  | 'getMerchantLogo'
  | 'getMerchantSettings'
  | 'updateMerchantSettings'
  | 'uploadMerchantLogo'
  | 'deleteMerchantLogo'
>;

export const merchantRoutes = (ctx: GatewayContext): MerchantRoutes => ({
  getMerchantInfo: async ({ params, res }) => {
    ok(res, await merchantInfo(ctx, params.id));
  },
  getMerchantLogo: async ({ params, req, res }) => {
    await serveMerchantLogo(ctx, params.id, req, res);
  },
  getMerchantSettings: async ({ merchant, res }) => {
    ok(res, await merchantSettings(ctx, merchant.merchantId));
  },
  updateMerchantSettings: async ({ merchant, body, auth, req, res }) => {
    ok(
      res,
      await updateMerchantSettings(ctx, merchant.merchantId, body, { auth, meta: requestMeta(req, res) }),
    );
  },
  uploadMerchantLogo: async ({ merchant, body, auth, req, res }) => {
    ok(res, await uploadMerchantLogo(ctx, merchant.merchantId, body, { auth, meta: requestMeta(req, res) }));
  },
  deleteMerchantLogo: async ({ merchant, auth, req, res }) => {
    ok(res, await removeMerchantLogo(ctx, merchant.merchantId, { auth, meta: requestMeta(req, res) }));
  },
});
