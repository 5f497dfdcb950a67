import type { RefundListPage } from '@stablepay/contracts';
import { ok, type HandlerOf } from '@stablepay/platform';
import type { RefundsContext } from '../context.js';
import { listMerchantRefunds } from './refund-queries.js';
import { toListItem } from './views.js';

/** GET /refunds/api/list (key) and its dashboard twin: the merchant's refunds, newest first. */
export const listRefundsRoute =
  (ctx: RefundsContext): HandlerOf<'listRefunds'> & HandlerOf<'listRefundsDashboard'> =>
  async ({ query, merchant, res }) => {
    const page = await listMerchantRefunds(ctx, merchant.merchantId, query);
    const data: RefundListPage = { ...page, refunds: page.refunds.map(toListItem) };
    ok(res, data);
  };
