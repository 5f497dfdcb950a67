import {
  CctpFeeInputsQuery,
  CctpFeeInputsResponse,
  InternalBalancesResponse,
  InternalPaymentParams,
  InternalPaymentResponse,
  InternalWalletParams,
  InternalWalletResponse,
  RelayerListResponse,
} from '../http/index.js';
import type { RouteSpec } from './types.js';

const internal = { service: 'chain-watcher', tags: ['Internal'], auth: 'service', internal: true } as const;

/** Routes between services: the gateway never routes them and the OpenAPI document leaves them out. */
export const internalRoutes = [
  {
    ...internal,
    operationId: 'getInternalWallet',
    method: 'get',
    path: '/internal/wallets/:merchantId',
    summary: "Where a merchant's funds are held",
    request: { params: InternalWalletParams },
    responses: { 200: { description: 'Wallet', schema: InternalWalletResponse } },
  },
  {
    ...internal,
    operationId: 'getInternalWalletBalances',
    method: 'get',
    path: '/internal/wallets/:merchantId/balances',
    summary: 'Balances of a merchant wallet, for refunds and withdrawals',
    noStore: true,
    request: { params: InternalWalletParams },
    responses: { 200: { description: 'Balances', schema: InternalBalancesResponse } },
  },
  {
    ...internal,
    operationId: 'listRelayers',
    method: 'get',
    path: '/internal/relayers',
    summary: 'Relayer accounts to keep funded with gas (addresses only)',
    noStore: true,
    responses: { 200: { description: 'Relayers', schema: RelayerListResponse } },
  },
  {
    ...internal,
    operationId: 'getCctpFeeInputs',
    method: 'get',
    path: '/internal/cctp/fee-inputs',
    summary: 'Gas price, gas units and native token price of a destination chain, for fee quotes',
    noStore: true,
    request: { query: CctpFeeInputsQuery },
    responses: { 200: { description: 'Fee inputs', schema: CctpFeeInputsResponse } },
  },
  {
    ...internal,
    service: 'payments',
    operationId: 'getInternalPayment',
    method: 'get',
    path: '/internal/merchants/:merchantId/payments/:id',
    summary: "One of a merchant's payments as it is now, for a projection that has not caught up",
    noStore: true,
    request: { params: InternalPaymentParams },
    responses: { 200: { description: 'Payment', schema: InternalPaymentResponse } },
  },
] as const satisfies readonly RouteSpec[];
