import type { RouteHandlers } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { createPublicPaymentRoute } from './create-public-route.js';
import { apiPaymentDetailRoute, merchantPaymentDetailRoute } from './detail-route.js';
import { internalPaymentRoute } from './internal-route.js';
import { listPaymentsRoute } from './list-route.js';
import { paymentStatusRoute } from './status-route.js';

type PaymentOperations =
  | 'createPublicPayment'
  | 'listPaymentsApi'
  | 'getPaymentApi'
  | 'listPayments'
  | 'getPaymentStatus'
  | 'getPayment'
  | 'getInternalPayment';

/** The payments operations of the catalogue (paths, auth and schemas live there). */
export const paymentRoutes = (ctx: PaymentsContext): Pick<RouteHandlers<'payments'>, PaymentOperations> => ({
  createPublicPayment: createPublicPaymentRoute(ctx),
  listPaymentsApi: listPaymentsRoute(ctx),
  getPaymentApi: apiPaymentDetailRoute(ctx),
  listPayments: listPaymentsRoute(ctx),
  getPaymentStatus: paymentStatusRoute(ctx),
  getPayment: merchantPaymentDetailRoute(ctx),
  getInternalPayment: internalPaymentRoute(ctx),
});
