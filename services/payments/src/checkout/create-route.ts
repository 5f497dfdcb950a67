import type { CreatedCheckoutSession } from '@stablepay/contracts';
import { ok, requestKeyOf, type HandlerOf } from '@stablepay/platform';
import { createCheckoutSession } from './sessions.js';
import type { PaymentsContext } from '../context.js';

/**
 * POST /checkout/sessions (key), also served at /public/checkout/sessions, and its dashboard twin
 * POST /checkout-sessions (bearer token): 201 with the new session, or with the one the forwarded
 * Idempotency-Key already opened (201, as the gateway replays it).
 */
export const createSessionRoute =
  (
    ctx: PaymentsContext,
  ): HandlerOf<'createCheckoutSession'> &
    HandlerOf<'createCheckoutSessionAlias'> &
    HandlerOf<'createCheckoutSessionDashboard'> =>
  async ({ body, merchant, req, res }) => {
    const { session, url } = await createCheckoutSession(
      ctx,
      merchant.merchantId,
      body,
      requestKeyOf(req, body),
    );
    const data: CreatedCheckoutSession = { id: session.id, url, expires_at: session.expiresAt.toISOString() };
    ok(res, data, 201);
  };
