import type { RequestHandler } from 'express';
import { RefundIdParams } from '@stablepay/contracts';
import { merchantOf, ok, parseParams } from '@stablepay/platform';
import type { RefundsContext } from '../../domain/context.js';
import { getMerchantRefund } from '../../domain/refund-queries.js';
import { toDetail } from '../views.js';

/** GET /refunds/api/:id (key): a malformed id is a 400 naming `id`, another merchant's refund a 404. */
export const refundDetailRoute =
  (ctx: RefundsContext): RequestHandler =>
  async (req, res) => {
    const { id } = parseParams(RefundIdParams, req);
    const { refund, payment } = await getMerchantRefund(ctx, merchantOf(res).merchantId, id);
    ok(res, toDetail(refund, payment));
  };
