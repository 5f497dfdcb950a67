import { ok, requestKeyOf, type HandlerOf } from '@stablepay/platform';
import type { RefundsContext } from '../context.js';
import { createRefund } from './create-refund.js';
import { toCreatedView } from './views.js';

/**
 * POST /refunds/api/create (key) and its dashboard twin: 201 with the new, pending refund; with an
 * Idempotency-Key the gateway forwarded, the refund that key already made, if any (the key with
 * another body is a 422).
 */
export const createRefundRoute =
  (ctx: RefundsContext): HandlerOf<'createRefund'> & HandlerOf<'createRefundDashboard'> =>
  async ({ body, merchant, req, res }) => {
    const refund = await createRefund(ctx, merchant.merchantId, body, requestKeyOf(req, body));
    ok(res, toCreatedView(refund), 201);
  };
