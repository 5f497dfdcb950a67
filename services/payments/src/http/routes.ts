import type { RouteHandlers } from '@stablepay/platform';
import type { PaymentsContext } from '../domain/context.js';
import { createSessionRoute } from './checkout/create.js';
import { getPublicSessionRoute, getSessionRoute } from './checkout/get.js';
import { listSessionsRoute } from './checkout/list.js';
import { reportTopUpRoute } from './checkout/top-ups.js';
import { internalPaymentRoute } from './internal/payment.js';
import { cctpFeeRoute } from './payments/cctp-fee.js';
import { createPublicPaymentRoute } from './payments/create-public.js';
import { apiPaymentDetailRoute, merchantPaymentDetailRoute } from './payments/detail.js';
import { listPaymentsRoute } from './payments/list.js';
import { paymentStatusRoute } from './payments/status.js';

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
