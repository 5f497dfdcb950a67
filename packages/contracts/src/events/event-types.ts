/** Integration event type names (= RabbitMQ routing keys). */
export const EventTypes = {
  MerchantCreated: 'merchant.created',
  MerchantEmailConfirmed: 'merchant.email_confirmed',
  AccountEmailRequested: 'account.email_requested',
  WalletAssigned: 'wallet.assigned',
  PaymentCreated: 'payment.created',
  PaymentCompleted: 'payment.completed',
  PaymentFailed: 'payment.failed',
  PaymentTopUpReported: 'payment.top_up.reported',
  CheckoutSessionCompleted: 'checkout.session.completed',
  CheckoutSessionExpired: 'checkout.session.expired',
  ChainPaymentVerified: 'chain.payment.verified',
  ChainPaymentRejected: 'chain.payment.rejected',
  ChainTopUpVerified: 'chain.top_up.verified',
  ChainTopUpRejected: 'chain.top_up.rejected',
  ChainCctpBurnVerified: 'chain.cctp.burn_verified',
  ChainCctpAttested: 'chain.cctp.attested',
  ChainCctpMinted: 'chain.cctp.minted',
  ChainCctpTransferred: 'chain.cctp.transferred',
  ChainCctpFailed: 'chain.cctp.failed',
  TransferRequested: 'transfer.requested',
  TransferSubmitted: 'transfer.submitted',
  TransferConfirmed: 'transfer.confirmed',
  TransferFailed: 'transfer.failed',
  RefundCreated: 'refund.created',
  RefundCompleted: 'refund.completed',
  RefundFailed: 'refund.failed',
  RefundCancelled: 'refund.cancelled',
  WithdrawalRequested: 'withdrawal.requested',
  WithdrawalCompleted: 'withdrawal.completed',
  WithdrawalFailed: 'withdrawal.failed',
  InvoiceIssued: 'invoice.issued',
  WebhookEndpointCreated: 'webhook_endpoint.created',
  WebhookEndpointDeleted: 'webhook_endpoint.deleted',
  WebhookEndpointSecretRegenerated: 'webhook_endpoint.secret_regenerated',
  WithdrawalAddressAdded: 'withdrawal_address.added',
  WithdrawalAddressRemoved: 'withdrawal_address.removed',
} as const;
export type EventType = (typeof EventTypes)[keyof typeof EventTypes];
export const EVENT_TYPES: readonly EventType[] = Object.values(EventTypes);

/** Commands are routed like events but have exactly one intended handler (the chain-watcher). */
export const COMMAND_TYPES: readonly EventType[] = [EventTypes.TransferRequested];
