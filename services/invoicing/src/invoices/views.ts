import { normalizeDecimal, type Invoice } from '@stablepay/contracts';
import { bpToPercent } from '../amounts.js';
import type { InvoiceRecord } from './records.js';

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
