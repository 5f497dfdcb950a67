import { z } from 'zod';
import {
  BlockchainName,
  Currency,
  DecimalString,
  EvmAddress,
  IsoTimestamp,
  TxHash,
  Uuid,
} from '../common.js';
import { InvoiceLanguage } from '../http/billing.js';
import { TaxCase } from '../http/invoices.js';
import { RefundWebhookData } from '../webhook-payloads.js';

/** refund.* data: the refund webhook data plus the internal merchant id. */
export const RefundEventData = RefundWebhookData.extend({
  merchant_id: Uuid,
  created_at: IsoTimestamp.optional(),
});
export type RefundEventData = z.infer<typeof RefundEventData>;

/**
 * withdrawal.requested: the withdrawal and both its transfer commands were recorded. `amount` leaves
 * the merchant wallet: `netAmount` to the destination and `fee` to the service's treasury.
 */
export const WithdrawalRequestedData = z.object({
  withdrawalId: Uuid,
  merchantId: Uuid,
  amount: DecimalString,
  fee: DecimalString,
  netAmount: DecimalString,
  currency: Currency,
  blockchain: BlockchainName,
  destinationAddress: EvmAddress,
  treasuryAddress: EvmAddress,
  requestedAt: IsoTimestamp,
});
export type WithdrawalRequestedData = z.infer<typeof WithdrawalRequestedData>;

/** withdrawal.completed: both transfers are confirmed; `txHash` is the net transfer's. */
export const WithdrawalCompletedData = WithdrawalRequestedData.omit({ requestedAt: true }).extend({
  txHash: TxHash,
  feeTxHash: TxHash,
  completedAt: IsoTimestamp,
});
export type WithdrawalCompletedData = z.infer<typeof WithdrawalCompletedData>;

/** withdrawal.failed: a transfer failed; the hashes name whatever did reach the chain. */
export const WithdrawalFailedData = WithdrawalRequestedData.omit({ requestedAt: true }).extend({
  reason: z.string(),
  txHash: TxHash.nullable(),
  feeTxHash: TxHash.nullable(),
  failedAt: IsoTimestamp,
});
export type WithdrawalFailedData = z.infer<typeof WithdrawalFailedData>;

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
