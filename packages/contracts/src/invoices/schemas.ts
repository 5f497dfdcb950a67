import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { Currency, DecimalString } from '../shared/money.js';
import { queryInt } from '../shared/paging.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';

export const InvoiceStatus = z.enum(['issued', 'rectified']);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

/** `<PREFIX>-<year>-<4-digit sequence>`, e.g. `INV-2025-0042`. */
export const INVOICE_NUMBER_RE = /^[A-Z][A-Z0-9]*-\d{4}-\d{4,}$/;

/**
 * How the invoice's VAT was decided: `domestic` (VAT of the seller's country), `eu_consumer` (an EU
 * customer in another member state without a VAT number: VAT of the customer's country),
 * `reverse_charge` (an EU business in another member state with a VAT number: no VAT, the customer
 * accounts for it), `outside_scope` (a customer outside the EU: no EU VAT).
 */
export const TaxCase = z.enum(['domestic', 'eu_consumer', 'reverse_charge', 'outside_scope']);
export type TaxCase = z.infer<typeof TaxCase>;

/**
 * What an invoice charged, wherever it is shown (the invoice, the invoice.issued webhook). The
 * service fee is the total charged (VAT included): `tax_amount` is the VAT contained in it, and
 * `net_amount` is what the withdrawal delivered (`gross_amount - service_fee`).
 */
export const invoiceFigures = {
  gross_amount: DecimalString,
  service_fee: DecimalString,
  /** the service fee in EUR; every other amount is in `currency` */
  service_fee_eur: DecimalString,
  tax_amount: DecimalString,
  net_amount: DecimalString,
  currency: Currency,
};

/** The spec's invoice, with our extension fields after `blockchain`. */
export const Invoice = z.object({
  id: Uuid,
  invoice_number: z.string().regex(INVOICE_NUMBER_RE),
  issued_at: IsoTimestamp,
  ...invoiceFigures,
  status: InvoiceStatus,
  /** storage path of the PDF (fetch it through the pdf endpoints) */
  pdf_url: z.string(),
  blockchain: z.string(),
  withdrawal_id: Uuid,
  tax_case: TaxCase,
  /** VAT rate in percent ("19.00"); "0.00" under reverse charge and outside the scope */
  tax_rate: DecimalString,
  /** the invoice this one corrects; null for the invoice first issued for a withdrawal */
  rectifies_invoice_id: Uuid.nullable(),
  /** the invoice that corrected this one (status `rectified`) */
  rectified_by_invoice_id: Uuid.nullable(),
});
export type Invoice = z.infer<typeof Invoice>;

export const InvoiceListQuery = z.object({
  year: queryInt({ min: 2000, max: 9999 }).optional(),
  status: InvoiceStatus.optional(),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

/** Newest first. */
export const InvoiceListResponse = successEnvelope(z.array(Invoice));
export type InvoiceListResponse = z.infer<typeof InvoiceListResponse>;

export const InvoiceIdParams = z.object({ id: Uuid });

export const InvoicePdfMode = z.enum(['view', 'download']);
export type InvoicePdfMode = z.infer<typeof InvoicePdfMode>;

/**
 * `mode=view` -> `Content-Disposition: inline`, `mode=download` -> `attachment`, both with the file
 * name `<invoice number>.pdf`. The spec leaves the default open; ours is `view`.
 */
export const InvoicePdfQuery = z.object({
  mode: InvoicePdfMode.default('view'),
});
export type InvoicePdfQuery = z.infer<typeof InvoicePdfQuery>;

export const PDF_CONTENT_TYPE = 'application/pdf';

/**
 * POST /invoices/:id/rectify (our extension): the issued invoice becomes `rectified` and a new one
 * with the next number, the merchant's current billing profile and the same amounts and rate
 * replaces it, naming it. `reason` is printed on the new invoice.
 */
export const RectifyInvoiceBody = z.object({
  reason: z.string().trim().min(1).max(500),
});
export type RectifyInvoiceBody = z.infer<typeof RectifyInvoiceBody>;

/** 201 with the rectifying invoice. */
export const RectifyInvoiceResponse = successEnvelope(Invoice);
