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
    description:
      "The merchant's receiving address, chain and chain id: what the payment widget sends the customer's transfer to. 404 for an unknown merchant id.",
    request: { params: MerchantIdParams },
    responses: ok('Wallet', MerchantWalletResponse),
  },
  {
    ...merchants,
    operationId: 'getMerchantInfo',
    method: 'get',
    path: '/merchants/:id/info',
    summary: 'Public merchant information',
    description:
      "The merchant's public profile (name, chain, accepted currencies) for the payment widget. 404 for an unknown merchant id.",
    request: { params: MerchantIdParams },
    responses: ok('Merchant info', MerchantInfoResponse),
  },
]);
