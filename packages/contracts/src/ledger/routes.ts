import { ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import { BalanceTransactionListQuery, BalanceTransactionListResponse } from './balance-transactions.js';
import { ReconciliationResponse } from './reconciliation.js';

const balanceTransactions = {
  service: 'chain-watcher',
  tags: ['Balance transactions'],
  extension: true,
  method: 'get',
  noStore: true,
  description:
    'The ledger entries of the merchant wallet, newest first: every token movement in or out with the ' +
    'wallet balance after it. `format=csv` or `Accept: text/csv` answers a CSV export of the same ' +
    'filters (all matching rows up to 10,000; `limit` and `offset` are ignored).',
  request: { query: BalanceTransactionListQuery },
  responses: {
    200: {
      description: 'A page of balance transactions (or the CSV export)',
      schema: BalanceTransactionListResponse,
      textAlternatives: ['text/csv'],
    },
  },
} as const;

const latest = {
  service: 'chain-watcher',
  tags: ['Wallets'],
  extension: true,
  method: 'get',
  summary: "The latest comparison of the ledger with the chain, for the merchant's wallets",
  description:
    'Every run compares, per wallet and token, the balance the ledger records with balanceOf at one confirmed ' +
    'block of the chain. A wallet in `discrepancy` holds a different amount than every recorded movement ' +
    'explains (a transfer the service did not make). Runs happen at least once a minute.',
  noStore: true,
  responses: ok('The latest reconciliation', ReconciliationResponse),
} as const;

/** The ledger of the merchant wallet: every token movement in or out. */
export const balanceTransactionRoutes = routeTable([
  {
    ...balanceTransactions,
    operationId: 'listBalanceTransactionsApi',
    path: '/balance-transactions/api/list',
    auth: 'key',
    scope: 'ledger:read',
    summary: 'List the wallet’s balance transactions (ledger entries)',
  },
  {
    ...balanceTransactions,
    operationId: 'listBalanceTransactions',
    path: '/balance-transactions',
    auth: 'jwt',
    summary: 'List the wallet’s balance transactions (dashboard)',
  },
]);

/** The ledger compared with the chain. */
export const reconciliationRoutes = routeTable([
  {
    ...latest,
    operationId: 'getReconciliationApi',
    path: '/reconciliation/api/latest',
    auth: 'key',
    scope: 'ledger:read',
  },
  {
    ...latest,
    operationId: 'getReconciliation',
    path: '/reconciliation/latest',
    auth: 'jwt',
    summary: `${latest.summary} (dashboard)`,
  },
]);
