import type {
  CheckoutSessionCompletedData,
  CheckoutSessionCompletedWebhookData,
  CheckoutSessionExpiredData,
  CheckoutSessionExpiredWebhookData,
  InvoiceIssuedData,
  InvoiceIssuedWebhookData,
  WithdrawalCompletedData,
  WithdrawalCompletedWebhookData,
  WithdrawalFailedData,
  WithdrawalFailedWebhookData,
} from '@stablepay/contracts';

/*
 * The public data of the extension events (docs/api/webhooks.md) from the integration events'. Each
 * names its fields one by one, so that an internal field added to an integration event later (the
 * merchant id, the treasury address, a storage path) never reaches a merchant by accident.
 */

const iso = (at: string): string => new Date(at).toISOString();

export const checkoutSessionCompletedWebhookData = (
  d: CheckoutSessionCompletedData,
): CheckoutSessionCompletedWebhookData => ({
  session_id: d.sessionId,
  status: 'complete',
  payment_id: d.paymentId,
  amount: d.amount,
  currency: d.currency,
  completed_at: iso(d.completedAt),
});

export const checkoutSessionExpiredWebhookData = (
  d: CheckoutSessionExpiredData,
): CheckoutSessionExpiredWebhookData => ({
  session_id: d.sessionId,
  status: 'expired',
  expired_at: iso(d.expiredAt),
});

/** The treasury address is the service's own, not the merchant's business: left out. */
const withdrawalFields = (d: WithdrawalCompletedData | WithdrawalFailedData) => ({
  withdrawal_id: d.withdrawalId,
  amount: d.amount,
  fee: d.fee,
  net_amount: d.netAmount,
  currency: d.currency,
  blockchain: d.blockchain,
  destination_address: d.destinationAddress,
});

export const withdrawalCompletedWebhookData = (
  d: WithdrawalCompletedData,
): WithdrawalCompletedWebhookData => ({
  ...withdrawalFields(d),
  status: 'completed',
  tx_hash: d.txHash,
  fee_tx_hash: d.feeTxHash,
  completed_at: iso(d.completedAt),
});

export const withdrawalFailedWebhookData = (d: WithdrawalFailedData): WithdrawalFailedWebhookData => ({
  ...withdrawalFields(d),
  status: 'failed',
  tx_hash: d.txHash,
  fee_tx_hash: d.feeTxHash,
  failure_reason: d.reason,
  failed_at: iso(d.failedAt),
});

/** The PDF's storage path, file name and language stay inside: the PDF is fetched by `invoice_id`. */
export const invoiceIssuedWebhookData = (d: InvoiceIssuedData): InvoiceIssuedWebhookData => ({
  invoice_id: d.invoiceId,
  invoice_number: d.invoiceNumber,
  withdrawal_id: d.withdrawalId,
  issued_at: iso(d.issuedAt),
  gross_amount: d.grossAmount,
  service_fee: d.serviceFee,
  service_fee_eur: d.serviceFeeEur,
  tax_amount: d.taxAmount,
  net_amount: d.netAmount,
  currency: d.currency,
  blockchain: d.blockchain,
  tax_case: d.taxCase,
  rectifies_invoice_id: d.rectifiesInvoiceId,
});
