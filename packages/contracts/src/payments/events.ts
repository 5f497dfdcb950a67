import { z } from 'zod';
import { CctpFeeQuote } from '../cctp/fee.js';
import { eventPaymentFields } from '../events/envelope.js';
import { LanguageCode } from '../shared/language-code.js';
import { Currency, DecimalString } from '../shared/money.js';
import { BlockchainName, ChainId, EvmAddress, IsoTimestamp, TxHash, Uuid } from '../shared/scalars.js';
import { PaymentWebhookData } from '../webhooks/payloads.js';

/** The transaction a customer says paid a payment: a claim the chain-watcher checks on the chain. */
export const claimedTransferFields = {
  ...eventPaymentFields,
  txHash: TxHash,
  currency: Currency,
  chainId: ChainId,
  sourceChain: BlockchainName,
  /** the payment's payer: only transfers from it count */
  fromAddress: EvmAddress,
  /** the merchant wallet the payment pays */
  toAddress: EvmAddress,
  /** verification rejects transactions mined before the session was created */
  sessionCreatedAt: IsoTimestamp.nullable(),
};

/** Everything the chain-watcher needs to verify the payment's transaction(s). */
export const PaymentCreatedData = z.object({
  ...claimedTransferFields,
  amount: DecimalString,
  expectedAmount: DecimalString.nullable(),
  isCrossChain: z.boolean(),
  bridgeKit: z.object({ burnTxHash: TxHash, mintTxHash: TxHash.optional() }).nullable(),
  feeQuote: CctpFeeQuote.nullable(),
  destinationChainId: ChainId.nullable(),
  sessionId: z.string().nullable(),
  createdAt: IsoTimestamp,
});
export type PaymentCreatedData = z.infer<typeof PaymentCreatedData>;

/** An outcome's data (completed, failed): the webhook's payment data plus the internal merchant id. */
const PaymentEventData = PaymentWebhookData.extend({ merchant_id: Uuid });

/** Completion adds when it happened. */
export const PaymentCompletedData = PaymentEventData.extend({
  completed_at: IsoTimestamp,
  /** When the payment was recorded; optional so that earlier producers' events still parse. */
  created_at: IsoTimestamp.optional(),
  /**
   * The language the customer paid in (the checkout page's), for their e-mails; absent when not
   * known (English). Internal: no webhook carries it.
   */
  customer_language: LanguageCode.optional(),
});
export type PaymentCompletedData = z.infer<typeof PaymentCompletedData>;

export const PaymentFailedData = PaymentEventData.extend({ failure_reason: z.string() });
export type PaymentFailedData = z.infer<typeof PaymentFailedData>;
