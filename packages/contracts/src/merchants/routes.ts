import { ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import { MerchantIdParams, MerchantInfoResponse, MerchantWalletResponse } from './schemas.js';

const merchants = { service: 'gateway', tags: ['Merchants'], auth: 'public' } as const;

export const merchantRoutes = routeTable([
  {
    ...merchants,
    operationId: 'getMerchantWallet',
    method: 'get',
    path: '/merchants/:id/wallet',
    summary: "The merchant's receiving wallet",
    request: { params: MerchantIdParams },
    responses: ok('Wallet', MerchantWalletResponse),
  },
  {
    ...merchants,
    operationId: 'getMerchantInfo',
    method: 'get',
    path: '/merchants/:id/info',
    summary: 'Public merchant information',
    request: { params: MerchantIdParams },
    responses: ok('Merchant info', MerchantInfoResponse),
  },
]);
