import { ok, type HandlerOf } from '@stablepay/platform';
import type { NotifierContext } from '../context.js';
import { merchantEventLog } from './event-log.js';

/** GET /events/api/list (key) and its dashboard twin GET /events (bearer token). */
export const eventLogRoutes = (ctx: NotifierContext) => {
  const list: HandlerOf<'listMerchantEvents'> & HandlerOf<'listMerchantEventsDashboard'> = async ({
    merchant,
    query,
    res,
  }) => {
    const page = await merchantEventLog(ctx, merchant.merchantId, query);
    ok(res, { ...page, limit: query.limit, offset: query.offset });
  };
  return { listMerchantEvents: list };
};
