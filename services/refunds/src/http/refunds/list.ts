import type { RequestHandler } from 'express';
import { RefundListQuery, type RefundListPage } from '@stablepay/contracts';
import { merchantOf, ok, parseQuery } from '@stablepay/platform';
import type { RefundsContext } from '../../domain/context.js';
import { listMerchantRefunds } from '../../domain/refund-queries.js';
import { toListItem } from '../views.js';

/** GET /refunds/api/list (key): the merchant's refunds, newest first. */
export const listRefundsRoute =
  (ctx: RefundsContext): RequestHandler =>
  async (req, res) => {
    const query = parseQuery(RefundListQuery, req);
    const page = await listMerchantRefunds(ctx, merchantOf(res).merchantId, query);
    const data: RefundListPage = { ...page, refunds: page.refunds.map(toListItem) };
    ok(res, data);
  };
