import { ok, type HandlerOf } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { latestReconciliation } from './reconciliation-view.js';

/** GET /reconciliation/api/latest and its dashboard twin: the merchant's wallets in the latest run. */
export const reconciliationRoutes = (ctx: WatcherContext) => {
  const getReconciliationApi: HandlerOf<'getReconciliationApi'> & HandlerOf<'getReconciliation'> = async ({
    merchant,
    res,
  }) => ok(res, await latestReconciliation(ctx, merchant.merchantId));
  return { getReconciliationApi, getReconciliation: getReconciliationApi };
};
