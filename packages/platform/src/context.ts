import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request (or per-message) identifiers that every log line and outgoing call carries. */
export interface RequestContext {
  requestId?: string;
  correlationId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const runWithContext = <T>(ctx: RequestContext, fn: () => T): T => storage.run(ctx, fn);

export const currentContext = (): RequestContext => storage.getStore() ?? {};
