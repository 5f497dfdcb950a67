import type { RequestHandler } from 'express';

/** Handlers of the gateway's own routes, by the contracts' operationId. */
export type GatewayHandlers = Record<string, RequestHandler>;
