import { gatewayRoutes } from './routes/gateway-routes.js';
import { moneyRoutes } from './routes/money-routes.js';
import { paymentRoutes } from './routes/payment-routes.js';
import type { RouteSpec } from './routes/types.js';
import { webhookRoutes } from './routes/webhook-routes.js';

export type { HttpMethod, OwningService, RouteAuth, RouteResponse, RouteSpec } from './routes/types.js';

/**
 * Every merchant-facing route, in registration order: within a prefix, static segments come before
 * parameter segments (`/payments/api/list` and `/payments/cctp-fee` before `/payments/:id`).
 */
export const routes: readonly RouteSpec[] = [
  ...gatewayRoutes,
  ...paymentRoutes,
  ...moneyRoutes,
  ...webhookRoutes,
];

/** Routes owned by one service. */
export function routesOf(service: RouteSpec['service']): RouteSpec[] {
  return routes.filter((route) => route.service === service);
}

/** `/payments/:id/status` -> `/payments/{id}/status` */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
