import type { RouteHandlers } from '@stablepay/platform';

/** Handlers of the gateway's own routes: one per gateway route of the catalogue (tsc checks the set). */
export type GatewayRoutes = RouteHandlers<'gateway'>;
