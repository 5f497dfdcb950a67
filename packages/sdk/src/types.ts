import type { Operations, PaymentWebhookEvent, RefundWebhookEvent } from './generated/operations.js';

export type { Operations, PaymentWebhookEvent, RefundWebhookEvent };

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

export type Payment = ResultOf<'getPaymentApi'>;
export type PaymentListItem = ItemOf<'listPaymentsApi', 'payments'>;
export type PaymentListParams = QueryOf<'listPaymentsApi'>;

export type CheckoutSessionCreateParams = BodyOf<'createCheckoutSession'>;
export type CreatedCheckoutSession = ResultOf<'createCheckoutSession'>;
export type CheckoutSession = ResultOf<'getCheckoutSession'>;
export type CheckoutSessionListItem = ItemOf<'listCheckoutSessions', 'sessions'>;
export type CheckoutSessionListParams = QueryOf<'listCheckoutSessions'>;

export type RefundCreateParams = BodyOf<'createRefund'>;
export type CreatedRefund = ResultOf<'createRefund'>;
export type Refund = ResultOf<'getRefund'>;
export type RefundListItem = ItemOf<'listRefunds', 'refunds'>;
export type RefundListParams = QueryOf<'listRefunds'>;

export type WebhookEndpoint = ResultOf<'getWebhook'>;
export type CreatedWebhookEndpoint = ResultOf<'createWebhook'>;
export type WebhookEndpointCreateParams = BodyOf<'createWebhook'>;
export type WebhookEndpointUpdateParams = BodyOf<'updateWebhook'>;
export type WebhookSecret = ResultOf<'regenerateWebhookSecret'>;
export type WebhookTestResult = ResultOf<'testWebhook'>;
export type WebhookDelivery = ItemOf<'getWebhookLogs', 'logs'>;
export type WebhookLogsParams = QueryOf<'getWebhookLogs'>;
export type WebhookEventType = ResultOf<'listWebhookEvents'>[number];

export type MerchantEvent = ItemOf<'listMerchantEvents', 'events'>;
export type MerchantEventListParams = QueryOf<'listMerchantEvents'>;

export type Balance = ResultOf<'getWalletBalance'>;

export type Invoice = ResultOf<'listInvoicesApi'>[number];
export type InvoiceListParams = QueryOf<'listInvoicesApi'>;
export type InvoicePdfParams = QueryOf<'getInvoicePdfApi'>;

export type WithdrawalCreateParams = BodyOf<'createWithdrawalApi'>;
export type Withdrawal = ResultOf<'getWithdrawalApi'>;
export type WithdrawalListParams = QueryOf<'listWithdrawalsApi'>;

export type BalanceTransaction = ItemOf<'listBalanceTransactionsApi', 'balance_transactions'>;
/** JSON pages only: the CSV export is a download, not a list. */
export type BalanceTransactionListParams = Omit<QueryOf<'listBalanceTransactionsApi'>, 'format'>;

/** A verified webhook body. */
export type WebhookEvent = PaymentWebhookEvent | RefundWebhookEvent;
