import type { ExampleTable, OperationExample } from './example.js';

export type { ExampleTable, OperationExample } from './example.js';

/** Every operation's example, by operation id (a dashboard twin shows its original's). */
export const operationExamples: ExampleTable = {};

/** The example of an operation, or of the operation it is the dashboard twin of. */
export const exampleOf = (route: { operationId: string; twinOf?: string }): OperationExample | undefined =>
  operationExamples[route.operationId] ?? (route.twinOf ? operationExamples[route.twinOf] : undefined);
