import type { RequestHandler } from 'express';
import { CreateRefundBody } from '@stablepay/contracts';
import { merchantOf, ok, parseBody } from '@stablepay/platform';
import type { RefundsContext } from '../../domain/context.js';
import { createRefund } from '../../domain/create-refund.js';
import { toCreatedView } from '../views.js';

/** POST /refunds/api/create (key): 201 with the new, pending refund. */
export const createRefundRoute =
  (ctx: RefundsContext): RequestHandler =>
  async (req, res) => {
    const body = parseBody(CreateRefundBody, req);
    const refund = await createRefund(ctx, merchantOf(res).merchantId, body);
    ok(res, toCreatedView(refund), 201);
  };
