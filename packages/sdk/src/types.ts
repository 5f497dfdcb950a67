import type { Operations, PaymentWebhookEvent, RefundWebhookEvent } from './generated/operations.js';

// Payment, Refund, CheckoutSessionCreateParams, ...: the parts of each wrapped operation, named where the
// generator lists the operations (scripts/generate-types.ts).
export type * from './generated/operations.js';

type OperationId = keyof Operations;
/** What a list or lookup takes in its query string. */
export type QueryOf<Op extends OperationId> = Operations[Op]['query'];
/** What a write sends. */
export type BodyOf<Op extends OperationId> = Operations[Op]['body'];
/** What an operation answers (the `data` of the success envelope). */
export type ResultOf<Op extends OperationId> = Operations[Op]['response'];
/** One item of a paged list's answer. */
export type ItemOf<Op extends OperationId, Items extends keyof ResultOf<Op>> =
  ResultOf<Op>[Items] extends ReadonlyArray<infer T> ? T : never;

/** JSON pages only: the CSV export is a download, not a list. */
export type BalanceTransactionListParams = Omit<QueryOf<'listBalanceTransactionsApi'>, 'format'>;

/** A verified webhook body. */
export type WebhookEvent = PaymentWebhookEvent | RefundWebhookEvent;
