import { z } from 'zod';
import { Currency, DecimalString, IsoTimestamp, Uuid, queryInt } from '../common.js';
import { successEnvelope } from '../envelope.js';

export const InvoiceStatus = z.enum(['issued', 'rectified']);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

/** `<PREFIX>-<year>-<4-digit sequence>`, e.g. `INV-2025-0042`. */
export const INVOICE_NUMBER_RE = /^[A-Z][A-Z0-9]*-\d{4}-\d{4,}$/;

export const Invoice = z.object({
  id: Uuid,
  invoice_number: z.string().regex(INVOICE_NUMBER_RE),
  issued_at: IsoTimestamp,
  gross_amount: DecimalString,
  service_fee: DecimalString,
  service_fee_eur: DecimalString,
  tax_amount: DecimalString,
  net_amount: DecimalString,
  currency: Currency,
  status: InvoiceStatus,
  /** storage path of the PDF (fetch it through the pdf endpoints) */
  pdf_url: z.string(),
  blockchain: z.string(),
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
export type InvoiceIdParams = z.infer<typeof InvoiceIdParams>;

export const InvoicePdfMode = z.enum(['view', 'download']);
export type InvoicePdfMode = z.infer<typeof InvoicePdfMode>;

/**
 * `mode=view` -> `Content-Disposition: inline`, `mode=download` -> `attachment`. The spec leaves the
 * default open; ours is `view`.
 */
export const InvoicePdfQuery = z.object({
  mode: InvoicePdfMode.default('view'),
});
export type InvoicePdfQuery = z.infer<typeof InvoicePdfQuery>;

export const PDF_CONTENT_TYPE = 'application/pdf';
