import { ok } from '../catalogue/responses.js';
import { internalRoute, routeTable } from '../catalogue/route-spec.js';
import {
  InternalBalancesResponse,
  InternalWalletParams,
  InternalWalletResponse,
  RelayerListResponse,
} from './internal.js';
import { WalletBalanceResponse } from './schemas.js';

const internal = { ...internalRoute, service: 'chain-watcher' } as const;

/** The merchant wallet, and the chain-watcher's routes for other services (never routed by the gateway). */
export const walletRoutes = routeTable([
  {
    service: 'chain-watcher',
    tags: ['Wallets'],
    operationId: 'getWalletBalance',
    method: 'get',
    path: '/wallets/api/balance',
    dashboard: '/wallets/balance',
    auth: 'key',
    scope: 'balance:read',
    summary: 'Token balances of the primary wallet (Cache-Control: no-store)',
    description:
      "What the merchant's wallet holds, per chain and token, read from the chain at the time of the request (never cached): the balance a withdrawal can draw on.",
    noStore: true,
    responses: ok('Balances', WalletBalanceResponse),
  },
  {
    ...internal,
    operationId: 'getInternalWallet',
    method: 'get',
    path: '/internal/wallets/:merchantId',
    summary: "Where a merchant's funds are held",
    request: { params: InternalWalletParams },
    responses: ok('Wallet', InternalWalletResponse),
  },
  {
    ...internal,
    operationId: 'getInternalWalletBalances',
    method: 'get',
    path: '/internal/wallets/:merchantId/balances',
    summary: 'Balances of a merchant wallet, for refunds and withdrawals',
    noStore: true,
    request: { params: InternalWalletParams },
    responses: ok('Balances', InternalBalancesResponse),
  },
  {
    ...internal,
    operationId: 'listRelayers',
    method: 'get',
    path: '/internal/relayers',
    summary: 'Relayer accounts to keep funded with gas (addresses only)',
    noStore: true,
    responses: ok('Relayers', RelayerListResponse),
  },
]);
