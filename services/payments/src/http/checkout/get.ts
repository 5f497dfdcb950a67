import type { RequestHandler } from 'express';
import { CheckoutSessionIdParams } from '@stablepay/contracts';
import { merchantOf, ok, parseParams } from '@stablepay/platform';
import { getCheckoutSession, getPublicCheckoutSession } from '../../domain/checkout.js';
import type { PaymentsContext } from '../../domain/context.js';
import { toPublicSessionView, toSessionView } from '../views.js';

/** GET /checkout/sessions/:id (key): the merchant's own session, with metadata and linked payment. */
export const getSessionRoute =
  (ctx: PaymentsContext): RequestHandler =>
  async (req, res) => {
    const { id } = parseParams(CheckoutSessionIdParams, req);
    const { session, payment } = await getCheckoutSession(ctx, id, merchantOf(res).merchantId);
    ok(res, toSessionView(session, payment));
  };

/** GET /checkout/sessions/:id/public (public): what the widget renders; no metadata. */
export const getPublicSessionRoute =
  (ctx: PaymentsContext): RequestHandler =>
  async (req, res) => {
    const { id } = parseParams(CheckoutSessionIdParams, req);
    const { session, payment, merchant } = await getPublicCheckoutSession(ctx, id);
    ok(res, toPublicSessionView(session, payment, merchant));
  };
