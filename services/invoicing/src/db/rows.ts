import { baseUnitsToDecimal, decimalToBaseUnits, normalizeDecimal } from '@stablepay/contracts';
import type { InvoiceParty, InvoiceRecord, LegState, WithdrawalRecord } from '../domain/records.js';

/** A row as the driver returns it (pg and PGlite differ in a few types, handled below). */
export type Row = Record<string, unknown>;

export const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
/** NUMERIC arrives as text from both drivers; normalising keeps the 6-decimal form. */
export const decimal = (v: unknown): string => normalizeDecimal(String(v));
const cents = (v: unknown): string => baseUnitsToDecimal(decimalToBaseUnits(String(v), 2), 2);
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** A SUM over NUMERIC (text, or null over no rows). */
export const sumToDecimal = (v: unknown): string => (v === null || v === undefined ? '0.000000' : decimal(v));

export const toWithdrawal = (r: Row): WithdrawalRecord => ({
  id: String(r.id),
  merchantId: String(r.merchant_id),
  currency: r.currency as WithdrawalRecord['currency'],
  blockchain: r.blockchain as WithdrawalRecord['blockchain'],
  destinationAddress: String(r.destination_address),
  treasuryAddress: String(r.treasury_address),
  grossAmount: decimal(r.gross_amount),
  feeAmount: decimal(r.fee_amount),
  netAmount: decimal(r.net_amount),
  feeRate: decimal(r.fee_rate),
  status: r.status as WithdrawalRecord['status'],
  failureReason: str(r.failure_reason),
  net: {
    state: r.net_state as LegState,
    txHash: str(r.net_tx_hash),
    confirmedAt: dateOrNull(r.net_confirmed_at),
  },
  fee: {
    state: r.fee_state as LegState,
    txHash: str(r.fee_tx_hash),
    confirmedAt: dateOrNull(r.fee_confirmed_at),
  },
  invoiceId: str(r.invoice_id),
  createdAt: date(r.created_at),
  completedAt: dateOrNull(r.completed_at),
  failedAt: dateOrNull(r.failed_at),
});

export const toInvoice = (r: Row): InvoiceRecord => ({
  id: String(r.id),
  merchantId: String(r.merchant_id),
  withdrawalId: String(r.withdrawal_id),
  invoiceNumber: String(r.invoice_number),
  prefix: String(r.prefix),
  year: Number(r.year),
  sequence: Number(r.sequence),
  status: r.status as InvoiceRecord['status'],
  issuedAt: date(r.issued_at),
  currency: r.currency as InvoiceRecord['currency'],
  blockchain: r.blockchain as InvoiceRecord['blockchain'],
  grossAmount: decimal(r.gross_amount),
  serviceFee: decimal(r.service_fee),
  netAmount: decimal(r.net_amount),
  feeRate: decimal(r.fee_rate),
  eurRate: decimal(r.eur_rate),
  eurRateDate: String(r.eur_rate_date),
  eurRateSource: String(r.eur_rate_source),
  serviceFeeEur: cents(r.service_fee_eur),
  taxCase: r.tax_case as InvoiceRecord['taxCase'],
  taxRateBp: Number(r.tax_rate_bp),
  vatCountry: str(r.vat_country),
  taxAmount: decimal(r.tax_amount),
  taxAmountEur: cents(r.tax_amount_eur),
  language: r.language as InvoiceRecord['language'],
  seller: json<InvoiceParty>(r.seller),
  customer: json<InvoiceParty>(r.customer),
  destinationAddress: String(r.destination_address),
  netTxHash: String(r.net_tx_hash),
  feeTxHash: String(r.fee_tx_hash),
  withdrawalCompletedAt: date(r.withdrawal_completed_at),
  rectifiesInvoiceId: str(r.rectifies_invoice_id),
  rectifiedByInvoiceId: str(r.rectified_by_invoice_id),
  rectificationReason: str(r.rectification_reason),
  rectifiesInvoiceNumber: str(r.rectifies_invoice_number),
  pdfKey: String(r.pdf_key),
  pdfStoredAt: dateOrNull(r.pdf_stored_at),
});
