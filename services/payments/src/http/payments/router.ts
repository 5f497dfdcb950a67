import { Router } from 'express';
import { ApiPaymentListQuery, PaymentListQuery } from '@stablepay/contracts';
import type { PaymentsContext } from '../../domain/context.js';
import { apiKeyOnly, userOnly } from '../auth.js';
import { createPublicPaymentRoute } from './create-public.js';
import { apiPaymentDetailRoute, merchantPaymentDetailRoute } from './detail.js';
import { listPaymentsRoute } from './list.js';
import { paymentStatusRoute } from './status.js';

/** Static segments before parameters: /payments/api/list must not be taken for /payments/api/:id. */
export const paymentsRouter = (ctx: PaymentsContext): Router => {
  const r = Router();
  r.post('/payments/create-public', createPublicPaymentRoute(ctx));
  r.get('/payments/api/list', apiKeyOnly, listPaymentsRoute(ctx, ApiPaymentListQuery));
  r.get('/payments/api/:id', apiKeyOnly, apiPaymentDetailRoute(ctx));
  r.get('/payments', userOnly, listPaymentsRoute(ctx, PaymentListQuery));
  r.get('/payments/:id/status', paymentStatusRoute(ctx));
  r.get('/payments/:id', userOnly, merchantPaymentDetailRoute(ctx));
  return r;
};
