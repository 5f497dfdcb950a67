import { ok, type HandlerOf } from '@stablepay/platform';
import type { RefundsContext } from '../../domain/context.js';
import { createRefund } from '../../domain/create-refund.js';
import { toCreatedView } from '../views.js';

/** POST /refunds/api/create (key) and its dashboard twin: 201 with the new, pending refund. */
export const createRefundRoute =
  (ctx: RefundsContext): HandlerOf<'createRefund'> & HandlerOf<'createRefundDashboard'> =>
  async ({ body, merchant, res }) => {
    const refund = await createRefund(ctx, merchant.merchantId, body);
    ok(res, toCreatedView(refund), 201);
  };
