import type { RouteHandlers } from '@stablepay/platform';
import type { RefundsContext } from '../context.js';
import { cancelRefundRoute } from './cancel-route.js';
import { createRefundRoute } from './create-route.js';
import { refundDetailRoute } from './detail-route.js';
import { listRefundsRoute } from './list-route.js';

/** The refunds catalogue routes (contracts `refunds/routes.ts`), one handler each; the platform serves each dashboard twin with its original's handler. */
export const refundsRoutes = (ctx: RefundsContext): RouteHandlers<'refunds'> => ({
  createRefund: createRefundRoute(ctx),
  listRefunds: listRefundsRoute(ctx),
  getRefund: refundDetailRoute(ctx),
  cancelRefund: cancelRefundRoute(ctx),
});
