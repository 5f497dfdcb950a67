import { routeTable } from '../catalogue/route-spec.js';
import { PublicChainsResponse } from './public.js';

export const chainRoutes = routeTable([
  {
    service: 'gateway',
    tags: ['Chains'],
    auth: 'public',
    extension: true,
    operationId: 'getPublicChains',
    method: 'get',
    path: '/chains',
    summary: 'Chains, tokens and CCTP contracts a payment may use',
    description:
      'What the checkout page and the widget read before paying: each served chain with its public RPC endpoints, token contracts and CCTP v2 contracts, and the attestation API of the bridge-kit flow.',
    responses: { 200: { description: 'Chains', schema: PublicChainsResponse } },
  },
]);
