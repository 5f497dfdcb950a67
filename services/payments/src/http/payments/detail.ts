import { ok, type HandlerOf } from '@stablepay/platform';
import type { PaymentsContext } from '../../domain/context.js';
import { getMerchantPayment } from '../../domain/payment-queries.js';
import { toDetail, toMerchantDetail } from '../views.js';

/** GET /payments/api/:id (key): the spec's detail view. */
export const apiPaymentDetailRoute =
  (ctx: PaymentsContext): HandlerOf<'getPaymentApi'> =>
  async ({ params, merchant, res }) => {
    ok(res, toDetail(await getMerchantPayment(ctx, merchant.merchantId, params.id)));
  };

/** GET /payments/:id (jwt): the detail view with every cross-chain field. */
export const merchantPaymentDetailRoute =
  (ctx: PaymentsContext): HandlerOf<'getPayment'> =>
  async ({ params, merchant, res }) => {
    ok(res, toMerchantDetail(await getMerchantPayment(ctx, merchant.merchantId, params.id)));
  };
