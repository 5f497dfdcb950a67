import type { CancelRefundResponse } from '@stablepay/contracts';
import type { HandlerOf } from '@stablepay/platform';
import type { RefundsContext } from '../context.js';
import { cancelRefund } from './refund-state.js';

/** POST /refunds/api/:id/cancel (key) and its dashboard twin: `{success: true}`; 409 once the refund is not pending. */
export const cancelRefundRoute =
  (ctx: RefundsContext): HandlerOf<'cancelRefund'> & HandlerOf<'cancelRefundDashboard'> =>
  async ({ params, merchant, res }) => {
    await cancelRefund(ctx, merchant.merchantId, params.id);
    const body: CancelRefundResponse = { success: true };
    res.status(200).json(body);
  };
