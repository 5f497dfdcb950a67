import type { RouteSpec } from './route-spec.js';

/**
 * The dashboard's twin of an API-key route that declares `dashboard: <path>`: the same operation,
 * schemas and owning service, at the path without `/api`, for a signed-in user's bearer token. The
 * specification pairs routes this way (`GET /payments` and `GET /payments/api/list`, `GET /invoices`
 * and `GET /invoices/api/list`); an API key stays the only credential of the original route and is
 * never accepted on its twin.
 */
export type DashboardTwin<R> = R extends {
  operationId: infer Op extends string;
  dashboard: infer P extends string;
}
  ? Omit<R, 'operationId' | 'path' | 'auth' | 'extension' | 'scope' | 'dashboard' | 'summary'> & {
      operationId: `${Op}Dashboard`;
      path: P;
      auth: 'jwt';
      extension: true;
      summary: string;
      twinOf: Op;
    }
  : never;

/** The twins of every route of a table that declares a dashboard path, in the table's order. */
export const dashboardTwins = <T extends readonly RouteSpec[]>(table: T): DashboardTwin<T[number]>[] =>
  table.flatMap((route: RouteSpec) => {
    // A dashboard session is not scope-limited: the twin keeps everything but the key's scope.
    const { scope: _keyScope, dashboard, ...shared } = route;
    if (!dashboard) return [];
    const twin = {
      ...shared,
      operationId: `${route.operationId}Dashboard`,
      path: dashboard,
      auth: 'jwt',
      extension: true,
      summary: `${route.summary} (dashboard)`,
      twinOf: route.operationId,
    } satisfies RouteSpec;
    return [twin as DashboardTwin<T[number]>];
  });
