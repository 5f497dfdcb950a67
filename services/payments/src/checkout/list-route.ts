import { ok, type HandlerOf } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { listCheckoutSessions } from './session-list.js';
import { toSessionView } from './views.js';

/** GET /checkout/sessions (key) and its dashboard twin GET /checkout-sessions (bearer token). */
export const listSessionsRoute =
  (ctx: PaymentsContext): HandlerOf<'listCheckoutSessions'> & HandlerOf<'listCheckoutSessionsDashboard'> =>
  async ({ query, merchant, res }) => {
    const page = await listCheckoutSessions(ctx, merchant.merchantId, query);
    ok(res, {
      sessions: page.sessions.map(({ session, payment, url }) => ({
        ...toSessionView(session, payment),
        url,
      })),
      total: page.total,
      limit: query.limit,
      offset: query.offset,
    });
  };
