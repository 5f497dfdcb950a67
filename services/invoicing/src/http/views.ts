import {
  normalizeDecimal,
  type Invoice,
  type Withdrawal,
  type WithdrawalAddress,
} from '@stablepay/contracts';
import { bpToPercent } from '../domain/amounts.js';
import type { InvoiceRecord, WithdrawalAddressRecord, WithdrawalRecord } from '../domain/records.js';

/** Records → the response views; each view lists exactly its fields. */

export const toWithdrawalView = (w: WithdrawalRecord): Withdrawal => ({
  id: w.id,
  amount: w.grossAmount,
  fee: w.feeAmount,
  net_amount: w.netAmount,
  currency: w.currency,
  blockchain: w.blockchain,
  destination_address: w.destinationAddress,
  status: w.status,
  tx_hash: w.net.txHash,
  fee_tx_hash: w.fee.txHash,
  failure_reason: w.failureReason,
  invoice_id: w.invoiceId,
  created_at: w.createdAt.toISOString(),
  completed_at: w.completedAt?.toISOString() ?? null,
});

export const toWithdrawalAddressView = (a: WithdrawalAddressRecord): WithdrawalAddress => ({
  id: a.id,
  address: a.address,
  label: a.label,
  status: a.removedAt ? 'removed' : a.usable ? 'active' : 'on_hold',
  created_at: a.createdAt.toISOString(),
  usable_from: a.usableFrom.toISOString(),
  removed_at: a.removedAt?.toISOString() ?? null,
});

export const toInvoiceView = (i: InvoiceRecord): Invoice => ({
  id: i.id,
  invoice_number: i.invoiceNumber,
  issued_at: i.issuedAt.toISOString(),
  gross_amount: i.grossAmount,
  service_fee: i.serviceFee,
  // Stored in cents, as the invoice states it; written with six decimals like every amount.
  service_fee_eur: normalizeDecimal(i.serviceFeeEur),
  tax_amount: i.taxAmount,
  net_amount: i.netAmount,
  currency: i.currency,
  status: i.status,
  pdf_url: i.pdfKey,
  blockchain: i.blockchain,
  withdrawal_id: i.withdrawalId,
  tax_case: i.taxCase,
  tax_rate: bpToPercent(i.taxRateBp),
  rectifies_invoice_id: i.rectifiesInvoiceId,
  rectified_by_invoice_id: i.rectifiedByInvoiceId,
});
