import type { RouteHandlers } from '@stablepay/platform';
import type { PaymentsContext } from './context.js';
import { createSessionRoute } from './checkout/create-route.js';
import { getPublicSessionRoute, getSessionRoute } from './checkout/get-route.js';
import { listSessionsRoute } from './checkout/list-route.js';
import { reportTopUpRoute } from './checkout/top-ups-route.js';
import { internalPaymentRoute } from './payments/internal-route.js';
import { cctpFeeRoute } from './fee-quote/cctp-fee-route.js';
import { createPublicPaymentRoute } from './payments/create-public-route.js';
import { apiPaymentDetailRoute, merchantPaymentDetailRoute } from './payments/detail-route.js';
import { listPaymentsRoute } from './payments/list-route.js';
import { paymentStatusRoute } from './payments/status-route.js';

/** One handler per payments operation of the catalogue (paths, auth and schemas live there). */
export const paymentsRoutes = (ctx: PaymentsContext): RouteHandlers<'payments'> => ({
  createPublicPayment: createPublicPaymentRoute(ctx),
  getCctpFee: cctpFeeRoute(ctx),
  listPaymentsApi: listPaymentsRoute(ctx),
  getPaymentApi: apiPaymentDetailRoute(ctx),
  listPayments: listPaymentsRoute(ctx),
  getPaymentStatus: paymentStatusRoute(ctx),
  getPayment: merchantPaymentDetailRoute(ctx),
  createCheckoutSession: createSessionRoute(ctx),
  createCheckoutSessionAlias: createSessionRoute(ctx),
  getPublicCheckoutSession: getPublicSessionRoute(ctx),
  reportCheckoutTopUp: reportTopUpRoute(ctx),
  getCheckoutSession: getSessionRoute(ctx),
  listCheckoutSessions: listSessionsRoute(ctx),
  // The dashboard's twins (bearer token) answer the same.
  createCheckoutSessionDashboard: createSessionRoute(ctx),
  getCheckoutSessionDashboard: getSessionRoute(ctx),
  getInternalPayment: internalPaymentRoute(ctx),
  listCheckoutSessionsDashboard: listSessionsRoute(ctx),
});
