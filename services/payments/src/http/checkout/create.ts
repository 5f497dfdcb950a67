import type { CreatedCheckoutSession } from '@stablepay/contracts';
import { ok, type HandlerOf } from '@stablepay/platform';
import { createCheckoutSession } from '../../domain/checkout.js';
import type { PaymentsContext } from '../../domain/context.js';

/**
 * POST /checkout/sessions (key), also served at /public/checkout/sessions, and its dashboard twin
 * POST /checkout-sessions (bearer token).
 */
export const createSessionRoute =
  (
    ctx: PaymentsContext,
  ): HandlerOf<'createCheckoutSession'> &
    HandlerOf<'createCheckoutSessionAlias'> &
    HandlerOf<'createCheckoutSessionDashboard'> =>
  async ({ body, merchant, res }) => {
    const { session, url } = await createCheckoutSession(ctx, merchant.merchantId, body);
    const data: CreatedCheckoutSession = { id: session.id, url, expires_at: session.expiresAt.toISOString() };
    ok(res, data, 201);
  };
