import { Router } from 'express';
import type { PaymentsContext } from '../../domain/context.js';
import { apiKeyOnly } from '../auth.js';
import { createSessionRoute } from './create.js';
import { getPublicSessionRoute, getSessionRoute } from './get.js';

export const checkoutRouter = (ctx: PaymentsContext): Router => {
  const r = Router();
  r.post(['/checkout/sessions', '/public/checkout/sessions'], apiKeyOnly, createSessionRoute(ctx));
  r.get('/checkout/sessions/:id/public', getPublicSessionRoute(ctx));
  r.get('/checkout/sessions/:id', apiKeyOnly, getSessionRoute(ctx));
  return r;
};
