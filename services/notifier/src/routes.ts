import type { RouteHandlers } from '@stablepay/platform';
import type { NotifierContext } from './context.js';
import { deliveryRoutes } from './delivery/routes.js';
import { endpointRoutes } from './webhooks/endpoint-routes.js';
import { eventLogRoutes } from './webhooks/event-log-routes.js';

/**
 * Every catalogue route the notifier owns: `/merchant-webhooks/api/*` for API keys, and the
 * dashboard's twins at `/merchant-webhooks/*` for a bearer token; the merchant's events at
 * `/events/api/list` and `/events`.
 */
export const webhookRoutes = (ctx: NotifierContext): RouteHandlers<'notifier'> => ({
  ...endpointRoutes(ctx),
  ...deliveryRoutes(ctx),
  ...eventLogRoutes(ctx),
});
