import type { z } from 'zod';
import type { ApiKeyScope } from '../accounts/scopes.js';
import type { ServiceName } from '../events/envelope.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/**
 * `key` = X-API-Key, `jwt` = dashboard bearer token, `public` = no credential, `service` = another
 * service with a service token (internal routes only; the gateway never exposes them).
 */
export type RouteAuth = 'public' | 'key' | 'jwt' | 'jwt_or_key' | 'service';

/** The service that serves a route: one of those that publish integration events. */
export type OwningService = ServiceName;

export interface RouteResponse {
  description: string;
  /** body schema; absent for bodies that are not JSON-described (or no body) */
  schema?: z.ZodType;
  /** default application/json */
  contentType?: string;
  /** a binary answer of one of these types (an image), instead of `contentType` */
  binaryTypes?: readonly string[];
  /** further media types the same response can be asked for with Accept (a CSV export), as text */
  textAlternatives?: readonly string[];
}

interface RouteSpecBase {
  operationId: string;
  method: HttpMethod;
  /** express style, `:id` parameters */
  path: string;
  service: OwningService;
  summary: string;
  description?: string;
  tags: readonly string[];
  request?: {
    body?: z.ZodType;
    query?: z.ZodType;
    params?: z.ZodType;
  };
  /** success responses (error responses are common to all routes, see openapi/errors.ts) */
  responses: Readonly<Record<number, RouteResponse>>;
  /** true for routes that are not in the interface specification */
  extension?: boolean;
  deprecated?: boolean;
  /** Every answer, errors included, carries `Cache-Control: no-store` (balances change every block). */
  noStore?: boolean;
  /**
   * Set while the route is part of the interface but not served yet: the gateway answers 501 in the
   * envelope with this text, the owning service registers no handler, and the OpenAPI document says so.
   */
  planned?: string;
  /**
   * A sensitive dashboard action: the gateway asks the user to prove again that it is them before
   * forwarding (a current authenticator code in X-Mfa-Code when two-factor sign-in is on, else a
   * sign-in within the last STEP_UP_MAX_AGE), and tells the owning service how in the internal
   * token, which the service checks again. Only for `jwt` routes.
   */
  stepUp?: boolean;
  /** Service-to-service route: not in the OpenAPI document, never routed by the gateway. */
  internal?: boolean;
  /** The largest body the route takes, when larger than the gateway's default for its own routes. */
  maxBodyBytes?: number;
}

/**
 * A capability's table of routes, each kept with its literal operation id, path and schemas (the
 * catalogue's types are built from them) and checked against RouteSpec.
 */
export const routeTable = <const T extends readonly RouteSpec[]>(routes: T): T => routes;

/** What every service-to-service route shares: the gateway never routes it, the OpenAPI document leaves it out. */
export const internalRoute = { tags: ['Internal'], auth: 'service', internal: true } as const;

/** Auth classes whose routes an API key may call. */
export type KeyAuth = Extract<RouteAuth, 'key' | 'jwt_or_key'>;

/**
 * A route an API key may call names the one scope the key must hold. Declared here, once, so that
 * the gateway and the owning service check the same thing; a key route without one does not
 * compile (and, for tables built at run time, stops the start: see `routesWithoutScope`).
 */
export interface KeyRouteSpec extends RouteSpecBase {
  auth: KeyAuth;
  scope: ApiKeyScope;
  /**
   * The path of the route's dashboard twin, when it has one: the same operation for a signed-in
   * user's bearer token (see dashboard-twins.ts). The catalogue derives the twin from this.
   */
  dashboard?: string;
  twinOf?: never;
}

/** Routes no API key reaches carry no scope: a dashboard session is not scope-limited. */
export interface KeylessRouteSpec extends RouteSpecBase {
  auth: Exclude<RouteAuth, KeyAuth>;
  scope?: never;
  dashboard?: never;
  /** On a dashboard twin: the operation it is the twin of, whose handler serves it unless it has its own. */
  twinOf?: string;
}

export type RouteSpec = KeyRouteSpec | KeylessRouteSpec;
