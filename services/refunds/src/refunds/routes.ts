import type { RouteHandlers } from '@stablepay/platform';
import type { RefundsContext } from '../context.js';
import { cancelRefundRoute } from './cancel-route.js';
import { createRefundRoute } from './create-route.js';
import { refundDetailRoute } from './detail-route.js';
import { listRefundsRoute } from './list-route.js';

/** The refunds catalogue routes (contracts `money-routes.ts`), one handler each. */
export const refundsRoutes = (ctx: RefundsContext): RouteHandlers<'refunds'> => ({
  createRefund: createRefundRoute(ctx),
  listRefunds: listRefundsRoute(ctx),
  getRefund: refundDetailRoute(ctx),
  cancelRefund: cancelRefundRoute(ctx),
  // The dashboard's twins (bearer token, same path without /api) answer the same.
  createRefundDashboard: createRefundRoute(ctx),
  listRefundsDashboard: listRefundsRoute(ctx),
  getRefundDashboard: refundDetailRoute(ctx),
  cancelRefundDashboard: cancelRefundRoute(ctx),
});
