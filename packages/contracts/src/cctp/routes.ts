import { ok } from '../catalogue/responses.js';
import { internalRoute, routeTable } from '../catalogue/route-spec.js';
import { CctpFeeInputsQuery, CctpFeeInputsResponse } from './fee-inputs.js';
import { CctpFeeQuery, CctpFeeResponse } from './fee.js';

const payments = { service: 'payments', tags: ['Payments'] } as const;

const internal = { ...internalRoute, service: 'chain-watcher' } as const;

export const cctpRoutes = routeTable([
  {
    ...payments,
    operationId: 'getCctpFee',
    method: 'get',
    path: '/payments/cctp-fee',
    auth: 'public',
    summary: 'Signed cross-chain fee quote (legacy relayer flow)',
    description:
      'Prices the destination-chain mint and merchant transfer plus the attestation fee. The quote is signed (HMAC-SHA256) and valid for validForSeconds; pass it back unchanged in feeQuote of POST /payments/create-public, where it pays for one payment.',
    // Every quote is fresh and time-limited: a cached one would be stale or expired.
    noStore: true,
    request: { query: CctpFeeQuery },
    responses: ok('Fee quote', CctpFeeResponse),
  },
  {
    ...internal,
    operationId: 'getCctpFeeInputs',
    method: 'get',
    path: '/internal/cctp/fee-inputs',
    summary: 'Gas price, gas units and native token price of a destination chain, for fee quotes',
    noStore: true,
    request: { query: CctpFeeInputsQuery },
    responses: ok('Fee inputs', CctpFeeInputsResponse),
  },
]);
