import { ok, type HandlerOf } from '@stablepay/platform';
import type { RefundsContext } from '../context.js';
import { getMerchantRefund } from './refund-queries.js';
import { toDetail } from './views.js';

/** GET /refunds/api/:id (key) and its dashboard twin: a malformed id is a 400 naming `id`, another merchant's refund a 404. */
export const refundDetailRoute =
  (ctx: RefundsContext): HandlerOf<'getRefund'> & HandlerOf<'getRefundDashboard'> =>
  async ({ params, merchant, res }) => {
    const { refund, payment } = await getMerchantRefund(ctx, merchant.merchantId, params.id);
    ok(res, toDetail(refund, payment));
  };
