import type { BlockchainName, Currency, InvoiceLanguage, InvoiceStatus, TaxCase } from '@stablepay/contracts';

/** Who an invoice is addressed to, as known when it was issued. */
export interface InvoiceParty {
  name: string;
  addressLines: string[];
  country: string | null;
  vatNumber: string | null;
  /** A national tax number; the seller's, printed when it has no VAT number. Absent on older rows. */
  taxNumber?: string | null;
  email?: string | null;
}

export interface InvoiceRecord {
  id: string;
  merchantId: string;
  withdrawalId: string;
  invoiceNumber: string;
  prefix: string;
  year: number;
  sequence: number;
  status: InvoiceStatus;
  issuedAt: Date;
  currency: Currency;
  blockchain: BlockchainName;
  grossAmount: string;
  serviceFee: string;
  netAmount: string;
  feeRate: string;
  eurRate: string;
  eurRateDate: string;
  eurRateSource: string;
  serviceFeeEur: string;
  taxCase: TaxCase;
  taxRateBp: number;
  vatCountry: string | null;
  taxAmount: string;
  taxAmountEur: string;
  language: InvoiceLanguage;
  seller: InvoiceParty;
  customer: InvoiceParty;
  destinationAddress: string;
  netTxHash: string;
  feeTxHash: string;
  withdrawalCompletedAt: Date;
  rectifiesInvoiceId: string | null;
  rectifiedByInvoiceId: string | null;
  rectificationReason: string | null;
  /** the number of the invoice this one rectifies, for the PDF */
  rectifiesInvoiceNumber: string | null;
  pdfKey: string;
  pdfStoredAt: Date | null;
}

export const invoiceFileName = (i: Pick<InvoiceRecord, 'invoiceNumber'>): string => `${i.invoiceNumber}.pdf`;
