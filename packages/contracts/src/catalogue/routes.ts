import { accountRoutes } from '../accounts/routes.js';
import { ApiKeyScope } from '../accounts/scopes.js';
import { securityRoutes } from '../accounts/security-routes.js';
import { cctpRoutes } from '../cctp/routes.js';
import { chainRoutes } from '../chains/routes.js';
import { checkoutRoutes } from '../checkout/routes.js';
import { invoiceRoutes } from '../invoices/routes.js';
import { balanceTransactionRoutes, reconciliationRoutes } from '../ledger/routes.js';
import { gaslessRoutes } from '../gasless/routes.js';
import { merchantRoutes } from '../merchants/routes.js';
import { paymentRoutes } from '../payments/routes.js';
import { refundRoutes } from '../refunds/routes.js';
import { topUpRoutes } from '../top-ups/routes.js';
import { walletRoutes } from '../wallets/routes.js';
import { webhookRoutes } from '../webhooks/routes.js';
import { withdrawalAddressRoutes } from '../withdrawals/address-book-routes.js';
import { withdrawalRoutes } from '../withdrawals/routes.js';
import { dashboardTwins } from './dashboard-twins.js';
import type { KeyRouteSpec, OwningService, RouteSpec } from './route-spec.js';

export type {
  HttpMethod,
  KeyAuth,
  KeyRouteSpec,
  KeylessRouteSpec,
  OwningService,
  RouteAuth,
  RouteResponse,
  RouteSpec,
} from './route-spec.js';
export { dashboardTwins, type DashboardTwin } from './dashboard-twins.js';

/** Every route each capability declares; a capability's new route file is added here once. */
const declared = [
  ...accountRoutes,
  ...merchantRoutes,
  ...chainRoutes,
  ...securityRoutes,
  // The fee quote's static path before `/payments/:id`, so that even a table mounted in this order works.
  ...cctpRoutes,
  ...gaslessRoutes,
  ...paymentRoutes,
  ...checkoutRoutes,
  ...topUpRoutes,
  ...balanceTransactionRoutes,
  ...invoiceRoutes,
  ...withdrawalRoutes,
  ...withdrawalAddressRoutes,
  ...walletRoutes,
  ...reconciliationRoutes,
  ...refundRoutes,
  ...webhookRoutes,
] as const;

const catalogue = [...declared, ...dashboardTwins(declared)];

/** Every route of the catalogue, each with its literal operation id, path and schemas. */
export type CatalogueRoute = (typeof catalogue)[number];
export type OperationId = CatalogueRoute['operationId'];
export type RouteOf<Op extends OperationId> = Extract<CatalogueRoute, { operationId: Op }>;
/** Operation ids of the dashboard twins: their handler defaults to the original operation's. */
export type TwinOperationId = Extract<CatalogueRoute, { twinOf: string }>['operationId'];
/** Operation ids a service must serve (planned routes excluded). */
export type ServedOperationOf<S extends OwningService> = Extract<
  CatalogueRoute,
  { service: S }
>['operationId'] extends infer Op
  ? Op extends OperationId
    ? RouteOf<Op> extends { planned: string }
      ? never
      : Op
    : never
  : never;

/** Every merchant-facing route (internal ones aside), in the catalogue's order. */
export const routes: readonly RouteSpec[] = catalogue.filter((r: RouteSpec) => !r.internal);

/** Every route, internal ones included. */
export const allRoutes: readonly RouteSpec[] = catalogue;

export function routeById<Op extends OperationId>(operationId: Op): RouteOf<Op> {
  const route = catalogue.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId} in the catalogue`);
  return route as RouteOf<Op>;
}

/** Routes owned by one service, internal ones included. */
export function routesOf(service: OwningService): RouteSpec[] {
  return allRoutes.filter((route) => route.service === service);
}

/** Whether an API key may call the route (its auth is `key` or `jwt_or_key`). */
export const admitsApiKey = (route: Pick<RouteSpec, 'auth'>): route is KeyRouteSpec =>
  route.auth === 'key' || route.auth === 'jwt_or_key';

/**
 * Routes of a table that an API key may call but that name no known scope. The types rule this
 * out for the catalogue; tables put together at run time (or cast) are checked with this at start,
 * and a non-empty answer stops it, as a route without a handler does.
 */
export const routesWithoutScope = (table: readonly RouteSpec[]): RouteSpec[] =>
  table.filter((route) => admitsApiKey(route) && !ApiKeyScope.safeParse(route.scope).success);

/** Throws, naming each one, when a route an API key may call declares no scope. */
export const assertScopesDeclared = (owner: string, table: readonly RouteSpec[]): void => {
  const unscoped = routesWithoutScope(table);
  if (unscoped.length)
    throw new Error(
      `${owner}: ${unscoped
        .map(
          (r) =>
            `route ${r.operationId} (${r.method.toUpperCase()} ${r.path}) admits an API key but declares no scope`,
        )
        .join('; ')}`,
    );
};

/** `/payments/:id/status` -> `/payments/{id}/status` */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const shape = (path: string): number[] => path.split('/').map((s) => (s.startsWith(':') ? 1 : 0));

/**
 * Registration order in which no parameter segment shadows a static one: `/payments/cctp-fee`
 * (public) is tried before `/payments/:id` (jwt), whatever order a table lists them in. Paths with
 * different segment counts never match the same URL, so ordering by segment count, then by shape
 * (static before parameter, segment by segment), is enough; the sort is stable.
 */
export const orderRoutes = <R extends Pick<RouteSpec, 'path'>>(table: readonly R[]): R[] =>
  [...table].sort((a, b) => {
    const sa = shape(a.path);
    const sb = shape(b.path);
    if (sa.length !== sb.length) return sa.length - sb.length;
    for (let i = 0; i < sa.length; i++) {
      const d = sa[i]! - sb[i]!;
      if (d !== 0) return d;
    }
    return 0;
  });
