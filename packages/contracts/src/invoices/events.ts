import { z } from 'zod';
import { Currency, DecimalString } from '../shared/money.js';
import { BlockchainName, IsoTimestamp, Uuid } from '../shared/scalars.js';
import { InvoiceLanguage } from './billing.js';
import { TaxCase } from './schemas.js';

/**
 * invoice.issued: an invoice was issued and its PDF is stored (fetch it with the internal PDF route
 * of the invoicing service). A rectifying invoice is issued like any other and names the one it
 * corrects.
 */
export const InvoiceIssuedData = z.object({
  invoiceId: Uuid,
  merchantId: Uuid,
  withdrawalId: Uuid,
  invoiceNumber: z.string(),
  grossAmount: DecimalString,
  serviceFee: DecimalString,
  serviceFeeEur: DecimalString,
  taxAmount: DecimalString,
  netAmount: DecimalString,
  currency: Currency,
  blockchain: BlockchainName,
  taxCase: TaxCase,
  language: InvoiceLanguage,
  /** storage path of the PDF, as the invoice's `pdf_url` */
  pdfUrl: z.string(),
  /** the PDF's file name, e.g. `INV-2025-0042.pdf` */
  fileName: z.string(),
  rectifiesInvoiceId: Uuid.nullable(),
  issuedAt: IsoTimestamp,
});
export type InvoiceIssuedData = z.infer<typeof InvoiceIssuedData>;
