import type { RequestHandler } from 'express';
import { PaymentIdParams } from '@stablepay/contracts';
import { merchantOf, ok, parseParams } from '@stablepay/platform';
import type { PaymentsContext } from '../../domain/context.js';
import { getMerchantPayment } from '../../domain/payment-queries.js';
import type { PaymentRecord } from '../../domain/records.js';
import { toDetail, toMerchantDetail } from '../views.js';

const detailRoute =
  (ctx: PaymentsContext, view: (p: PaymentRecord) => unknown): RequestHandler =>
  async (req, res) => {
    const { id } = parseParams(PaymentIdParams, req);
    ok(res, view(await getMerchantPayment(ctx, merchantOf(res).merchantId, id)));
  };

/** GET /payments/api/:id (key): the spec's detail view. */
export const apiPaymentDetailRoute = (ctx: PaymentsContext): RequestHandler => detailRoute(ctx, toDetail);

/** GET /payments/:id (jwt): the detail view with every cross-chain field. */
export const merchantPaymentDetailRoute = (ctx: PaymentsContext): RequestHandler =>
  detailRoute(ctx, toMerchantDetail);
