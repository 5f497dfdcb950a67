import type { z } from 'zod';
import { routeById, type CatalogueRoute, type RouteOf, type RouteSpec } from '@stablepay/contracts';
import { InternalCallError, callInternal } from '../http/internal-client.js';

/** The catalogue's service-to-service routes, by operation id. */
export type InternalOperationId = Extract<CatalogueRoute, { internal: true }>['operationId'];

type RequestPart<Op extends InternalOperationId, K extends 'params' | 'query'> =
  RouteOf<Op> extends { request: { [P in K]: infer S extends z.ZodType } } ? z.input<S> : undefined;

/** The body a route's 200 answer carries, as its contract parses it. */
export type InternalAnswer<Op extends InternalOperationId> = RouteOf<Op>['responses'] extends {
  200: { schema: infer S extends z.ZodType };
}
  ? z.output<S>
  : never;

export interface InternalRequest<Op extends InternalOperationId> {
  /** The path's `:name` parts, as the route's params schema names them. */
  params: RequestPart<Op, 'params'>;
  query?: RequestPart<Op, 'query'>;
  /** What the answer describes, for messages: `balance`. */
  what: string;
  /** Statuses that mean "no such thing" and resolve to undefined instead of failing (404). */
  absentOn?: readonly number[];
}

export interface InternalRouteClientOptions {
  baseUrl: string;
  /** INTERNAL_TOKEN_SECRET: every call carries a short-lived service token signed with it. */
  secret: string;
  timeoutMs: number;
  /** The caller's own error for "the service could not answer"; InternalCallError by default. */
  unavailable?: (message: string) => Error;
}

/** The route's path with its `:name` parts filled in, percent-encoded, relative to the base URL. */
export const internalRoutePath = (path: string, params: Record<string, unknown> | undefined): string =>
  path.replace(/^\//, '').replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null)
      throw new Error(`path parameter ${name} of ${path} is missing`);
    return encodeURIComponent(String(value));
  });

/**
 * Calls one service's internal routes as the catalogue declares them: the path, parameters and
 * answer are typed from the route, the answer is parsed against the route's contract, and each call
 * is signed with the internal token and carries the current correlation id.
 */
export class InternalRouteClient {
  constructor(private readonly opts: InternalRouteClientOptions) {}

  /** The error this client reports a service that could not answer with. */
  unavailable(message: string, status?: number): Error {
    return this.opts.unavailable ? this.opts.unavailable(message) : new InternalCallError(message, status);
  }

  async get<Op extends InternalOperationId>(
    operationId: Op,
    request: InternalRequest<Op>,
  ): Promise<InternalAnswer<Op> | undefined> {
    const route: RouteSpec = routeById(operationId);
    const schema = route.responses[200]?.schema;
    if (route.method !== 'get' || !schema) throw new Error(`${operationId} is not a GET with a JSON answer`);
    try {
      return (await callInternal({
        service: route.service,
        baseUrl: this.opts.baseUrl,
        path: internalRoutePath(route.path, request.params as Record<string, unknown> | undefined),
        query: request.query as Record<string, string> | undefined,
        secret: this.opts.secret,
        timeoutMs: this.opts.timeoutMs,
        schema,
        what: request.what,
        absentOn: request.absentOn,
      })) as InternalAnswer<Op> | undefined;
    } catch (err) {
      if (err instanceof InternalCallError) throw this.unavailable(err.message, err.status);
      throw err;
    }
  }
}
