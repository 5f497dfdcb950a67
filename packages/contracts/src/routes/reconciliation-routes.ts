import { ReconciliationResponse } from '../http/index.js';
import type { RouteSpec } from './types.js';

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
  responses: { 200: { description: 'The latest reconciliation', schema: ReconciliationResponse } },
} as const;

export const reconciliationRoutes = [
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
] as const satisfies readonly RouteSpec[];
