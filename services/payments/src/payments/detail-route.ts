import { ok, type HandlerOf } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { merchantPaymentWithHistory } from './payment-history.js';
import { toDetail, toMerchantDetail } from './views.js';

/** GET /payments/api/:id (key): the spec's detail view. */
export const apiPaymentDetailRoute =
  (ctx: PaymentsContext): HandlerOf<'getPaymentApi'> =>
  async ({ params, merchant, res }) => {
    const { payment, history, transfers } = await merchantPaymentWithHistory(
      ctx,
      merchant.merchantId,
      params.id,
    );
    ok(res, toDetail(payment, history, transfers));
  };

/** GET /payments/:id (jwt): the detail view with every cross-chain field. */
export const merchantPaymentDetailRoute =
  (ctx: PaymentsContext): HandlerOf<'getPayment'> =>
  async ({ params, merchant, res }) => {
    const { payment, history, transfers } = await merchantPaymentWithHistory(
      ctx,
      merchant.merchantId,
      params.id,
    );
    ok(res, toMerchantDetail(payment, history, transfers));
  };
