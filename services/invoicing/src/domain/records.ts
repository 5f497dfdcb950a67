import type {
  BlockchainName,
  Currency,
  InvoiceLanguage,
  InvoiceStatus,
  TaxCase,
  WithdrawalStatus,
} from '@stablepay/contracts';

/** The two transfers of a withdrawal: the net amount to the destination, the fee to the treasury. */
export type Leg = 'net' | 'fee';
export type LegState = 'requested' | 'submitted' | 'confirmed' | 'failed';

/** Amounts are exact 6-decimal strings ("12.500000"), never floats. */
export interface WithdrawalRecord {
  id: string;
  merchantId: string;
  currency: Currency;
  blockchain: BlockchainName;
  destinationAddress: string;
  treasuryAddress: string;
  grossAmount: string;
  feeAmount: string;
  netAmount: string;
  feeRate: string;
  status: WithdrawalStatus;
  failureReason: string | null;
  net: { state: LegState; txHash: string | null; confirmedAt: Date | null };
  fee: { state: LegState; txHash: string | null; confirmedAt: Date | null };
  invoiceId: string | null;
  createdAt: Date;
  completedAt: Date | null;
  failedAt: Date | null;
}

/** Who an invoice is addressed to, as known when it was issued. */
export interface InvoiceParty {
  name: string;
  addressLines: string[];
  country: string | null;
  vatNumber: string | null;
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

/** An entry of the withdrawal address book. */
export interface WithdrawalAddressRecord {
  id: string;
  merchantId: string;
  /** EIP-55 checksummed */
  address: string;
  label: string;
  createdAt: Date;
  usableFrom: Date;
  removedAt: Date | null;
  /** its hold has passed (by the database's clock) */
  usable: boolean;
}
