import type { RouteHandlers } from '@stablepay/platform';
import type { NotifierContext } from '../../domain/context.js';
import { deliveryRoutes } from './delivery-routes.js';
import { endpointRoutes } from './endpoint-routes.js';

/** Every catalogue route the notifier owns (`/merchant-webhooks/api/*`, API keys only). */
export const webhookRoutes = (ctx: NotifierContext): RouteHandlers<'notifier'> => ({
  ...endpointRoutes(ctx),
  ...deliveryRoutes(ctx),
});
