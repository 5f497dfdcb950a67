/**
 * An operation's example: a request (body, query and path parameters as a client sends them) and the
 * body of each success answer. The contract tests parse every one with the route's own schemas, so an
 * example that drifts from its schema fails a test instead of misleading a reader.
 */
export interface OperationExample {
  request?: {
    body?: unknown;
    query?: Record<string, unknown>;
    params?: Record<string, unknown>;
  };
  /** by status; an answer without a JSON body (a PDF) has none */
  responses: Readonly<Record<number, unknown>>;
}

export type ExampleTable = Readonly<Record<string, OperationExample>>;
