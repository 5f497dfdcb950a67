import { moneyRoutes } from './money-routes.js';
import { paymentRoutes } from './payment-routes.js';
import type { RouteSpec } from './types.js';
import { webhookRoutes } from './webhook-routes.js';

type Table = readonly RouteSpec[];

/**
 * The dashboard's twin of an API-key route: the same operation, schemas and owning service, at the
 * path without `/api`, for a signed-in user's bearer token. The specification pairs routes this way
 * (`GET /payments` and `GET /payments/api/list`, `GET /invoices` and `GET /invoices/api/list`); an
 * API key stays the only credential of the original route and is never accepted on its twin.
 */
const twin = <T extends Table, Op extends T[number]['operationId'], Id extends string, P extends string>(
  table: T,
  original: Op,
  operationId: Id,
  path: P,
) => {
  const route = table.find((r) => r.operationId === original) as Extract<T[number], { operationId: Op }>;
  if (!route) throw new Error(`no route ${original} to twin`);
  // A dashboard session is not scope-limited: the twin keeps everything but the key's scope.
  const { scope: _keyScope, ...shared } = route;
  return {
    ...shared,
    operationId,
    path,
    auth: 'jwt',
    extension: true,
    summary: `${route.summary} (dashboard)`,
  } as Omit<
    Extract<T[number], { operationId: Op }>,
    'operationId' | 'path' | 'auth' | 'extension' | 'scope'
  > & {
    operationId: Id;
    path: P;
    auth: 'jwt';
    extension: true;
  };
};

export const dashboardRoutes = [
  twin(moneyRoutes, 'getWalletBalance', 'getWalletBalanceDashboard', '/wallets/balance'),
  twin(moneyRoutes, 'createRefund', 'createRefundDashboard', '/refunds'),
  twin(moneyRoutes, 'listRefunds', 'listRefundsDashboard', '/refunds'),
  twin(moneyRoutes, 'getRefund', 'getRefundDashboard', '/refunds/:id'),
  twin(moneyRoutes, 'cancelRefund', 'cancelRefundDashboard', '/refunds/:id/cancel'),
  // Checkout sessions have no `/api` in their paths; their twins live under `/checkout-sessions`.
  twin(paymentRoutes, 'createCheckoutSession', 'createCheckoutSessionDashboard', '/checkout-sessions'),
  twin(paymentRoutes, 'listCheckoutSessions', 'listCheckoutSessionsDashboard', '/checkout-sessions'),
  twin(paymentRoutes, 'getCheckoutSession', 'getCheckoutSessionDashboard', '/checkout-sessions/:id'),
  twin(webhookRoutes, 'listWebhooks', 'listWebhooksDashboard', '/merchant-webhooks'),
  twin(webhookRoutes, 'createWebhook', 'createWebhookDashboard', '/merchant-webhooks'),
  twin(webhookRoutes, 'listWebhookEvents', 'listWebhookEventsDashboard', '/merchant-webhooks/events'),
  twin(webhookRoutes, 'listMerchantEvents', 'listMerchantEventsDashboard', '/events'),
  twin(webhookRoutes, 'getWebhook', 'getWebhookDashboard', '/merchant-webhooks/:id'),
  twin(webhookRoutes, 'updateWebhook', 'updateWebhookDashboard', '/merchant-webhooks/:id'),
  twin(webhookRoutes, 'deleteWebhook', 'deleteWebhookDashboard', '/merchant-webhooks/:id'),
  twin(
    webhookRoutes,
    'regenerateWebhookSecret',
    'regenerateWebhookSecretDashboard',
    '/merchant-webhooks/:id/regenerate-secret',
  ),
  twin(webhookRoutes, 'testWebhook', 'testWebhookDashboard', '/merchant-webhooks/:id/test'),
  twin(webhookRoutes, 'getWebhookLogs', 'getWebhookLogsDashboard', '/merchant-webhooks/:id/logs'),
  twin(
    webhookRoutes,
    'redeliverWebhook',
    'redeliverWebhookDashboard',
    '/merchant-webhooks/:id/deliveries/:deliveryId/redeliver',
  ),
  twin(webhookRoutes, 'replayWebhooks', 'replayWebhooksDashboard', '/merchant-webhooks/:id/replay'),
] as const satisfies readonly RouteSpec[];
