import type { RequestHandler } from 'express';
import { RefundIdParams, type CancelRefundResponse } from '@stablepay/contracts';
import { merchantOf, parseParams } from '@stablepay/platform';
import type { RefundsContext } from '../../domain/context.js';
import { cancelRefund } from '../../domain/refund-state.js';

/** POST /refunds/api/:id/cancel (key): `{success: true}`; 409 once the refund is not pending. */
export const cancelRefundRoute =
  (ctx: RefundsContext): RequestHandler =>
  async (req, res) => {
    const { id } = parseParams(RefundIdParams, req);
    await cancelRefund(ctx, merchantOf(res).merchantId, id);
    const body: CancelRefundResponse = { success: true };
    res.status(200).json(body);
  };
