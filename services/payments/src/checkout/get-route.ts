import { ok, type HandlerOf } from '@stablepay/platform';
import { getCheckoutSession, getPublicCheckoutSession } from './sessions.js';
import type { PaymentsContext } from '../context.js';
import { toPublicSessionView, toSessionView } from './views.js';

/**
 * GET /checkout/sessions/:id (key) and its dashboard twin GET /checkout-sessions/:id (bearer
 * token): the merchant's own session, with metadata and linked payment.
 */
export const getSessionRoute =
  (ctx: PaymentsContext): HandlerOf<'getCheckoutSession'> & HandlerOf<'getCheckoutSessionDashboard'> =>
  async ({ params, merchant, res }) => {
    const { session, payment } = await getCheckoutSession(ctx, params.id, merchant.merchantId);
    ok(res, toSessionView(session, payment));
  };

/** GET /checkout/sessions/:id/public (public): what the widget renders; no metadata. */
export const getPublicSessionRoute =
  (ctx: PaymentsContext): HandlerOf<'getPublicCheckoutSession'> =>
  async ({ params, res }) => {
    const { session, payment, merchant, topUpPending } = await getPublicCheckoutSession(ctx, params.id);
    ok(res, toPublicSessionView(session, payment, merchant, topUpPending));
  };
