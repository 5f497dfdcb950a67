import type { RouteHandlers } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { createSessionRoute } from './create-route.js';
import { getPublicSessionRoute, getSessionRoute } from './get-route.js';
import { listSessionsRoute } from './list-route.js';
import { reportTopUpRoute } from './top-ups-route.js';

type CheckoutOperations =
  | 'createCheckoutSession'
  | 'createCheckoutSessionAlias'
  | 'getPublicCheckoutSession'
  | 'reportCheckoutTopUp'
  | 'getCheckoutSession'
  | 'listCheckoutSessions'
  | 'createCheckoutSessionDashboard'
  | 'getCheckoutSessionDashboard'
  | 'listCheckoutSessionsDashboard';

/** The checkout session operations of the catalogue; the dashboard's twins answer the same. */
export const checkoutRoutes = (
  ctx: PaymentsContext,
): Pick<RouteHandlers<'payments'>, CheckoutOperations> => ({
  createCheckoutSession: createSessionRoute(ctx),
  createCheckoutSessionAlias: createSessionRoute(ctx),
  getPublicCheckoutSession: getPublicSessionRoute(ctx),
  reportCheckoutTopUp: reportTopUpRoute(ctx),
  getCheckoutSession: getSessionRoute(ctx),
  listCheckoutSessions: listSessionsRoute(ctx),
});
