import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** `key` = X-API-Key, `jwt` = dashboard bearer token, `public` = no credential. */
export type RouteAuth = 'public' | 'key' | 'jwt' | 'jwt_or_key';

export type OwningService = 'gateway' | 'payments' | 'chain-watcher' | 'refunds' | 'invoicing' | 'notifier';

export interface RouteResponse {
  description: string;
  /** body schema; absent for bodies that are not JSON-described (or no body) */
  schema?: z.ZodType;
  /** default application/json */
  contentType?: string;
}

export interface RouteSpec {
  operationId: string;
  method: HttpMethod;
  /** express style, `:id` parameters */
  path: string;
  auth: RouteAuth;
  service: OwningService;
  summary: string;
  description?: string;
  tags: readonly string[];
  request?: {
    body?: z.ZodType;
    query?: z.ZodType;
    params?: z.ZodType;
  };
  /** success responses (error responses are common to all routes, see openapi.ts) */
  responses: Record<number, RouteResponse>;
  /** true for routes that are not in the interface specification */
  extension?: boolean;
  deprecated?: boolean;
}
