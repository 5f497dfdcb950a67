import type { RequestHandler } from 'express';
import { CreateCheckoutSessionBody, type CreatedCheckoutSession } from '@stablepay/contracts';
import { merchantOf, ok, parseBody } from '@stablepay/platform';
import { createCheckoutSession } from '../../domain/checkout.js';
import type { PaymentsContext } from '../../domain/context.js';

/** POST /checkout/sessions (key), also served at /public/checkout/sessions. */
export const createSessionRoute =
  (ctx: PaymentsContext): RequestHandler =>
  async (req, res) => {
    const body = parseBody(CreateCheckoutSessionBody, req);
    const { session, url } = await createCheckoutSession(ctx, merchantOf(res).merchantId, body);
    const data: CreatedCheckoutSession = { id: session.id, url, expires_at: session.expiresAt.toISOString() };
    ok(res, data, 201);
  };
