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
import { RefundWebhookData } from '../webhook-payloads.js';

/** refund.* data: the refund webhook data plus the internal merchant id. */
export const RefundEventData = RefundWebhookData.extend({
  merchant_id: Uuid,
  created_at: IsoTimestamp.optional(),
});
export type RefundEventData = z.infer<typeof RefundEventData>;

export const WithdrawalRequestedData = z.object({
  withdrawalId: Uuid,
  merchantId: Uuid,
  amount: DecimalString,
  currency: Currency,
  blockchain: BlockchainName,
  destinationAddress: EvmAddress,
  requestedAt: IsoTimestamp,
});
export type WithdrawalRequestedData = z.infer<typeof WithdrawalRequestedData>;

export const WithdrawalCompletedData = WithdrawalRequestedData.omit({ requestedAt: true }).extend({
  txHash: TxHash,
  completedAt: IsoTimestamp,
});
export type WithdrawalCompletedData = z.infer<typeof WithdrawalCompletedData>;

export const WithdrawalFailedData = WithdrawalRequestedData.omit({ requestedAt: true }).extend({
  reason: z.string(),
  failedAt: IsoTimestamp,
});
export type WithdrawalFailedData = z.infer<typeof WithdrawalFailedData>;

export const InvoiceIssuedData = z.object({
  invoiceId: Uuid,
  merchantId: Uuid,
  withdrawalId: Uuid,
  invoiceNumber: z.string(),
  grossAmount: DecimalString,
  serviceFee: DecimalString,
  netAmount: DecimalString,
  currency: Currency,
  issuedAt: IsoTimestamp,
});
export type InvoiceIssuedData = z.infer<typeof InvoiceIssuedData>;
