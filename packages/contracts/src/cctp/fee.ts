import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { PAYMENT_AMOUNT_MAX, PAYMENT_AMOUNT_MIN, moneyAmountString } from '../shared/money.js';
import { BlockchainName, QuoteSignature, Uuid } from '../shared/scalars.js';

/**
 * GET /payments/cctp-fee query: both required. productPrice is what the merchant receives, so it has
 * the range and precision of a payment amount; it comes out as a canonical 6-decimal string.
 */
export const CctpFeeQuery = z.object({
  destinationChain: BlockchainName,
  productPrice: moneyAmountString({ min: PAYMENT_AMOUNT_MIN, max: PAYMENT_AMOUNT_MAX }),
});
export type CctpFeeQuery = z.infer<typeof CctpFeeQuery>;

export const CctpFeeBreakdown = z.object({
  gasEstimateUSD: z.number(),
  gasWithBuffer: z.number(),
  minGasFee: z.number(),
  bufferPercent: z.number(),
});

/**
 * Signed, time-limited cross-chain fee quote (legacy relayer flow). Field names and JSON number types
 * are the spec's; the service re-verifies `signature` when the quote comes back in `feeQuote`.
 */
export const CctpFeeQuote = z.object({
  productPrice: z.number(),
  amountToBurn: z.number(),
  feeGas: z.number(),
  feeCircle: z.number(),
  feeTotal: z.number(),
  totalUserPays: z.number(),
  merchantReceives: z.number(),
  destinationChain: z.string(),
  validUntil: z.number().int(),
  validForSeconds: z.number().int(),
  breakdown: CctpFeeBreakdown,
  /**
   * Not in the specification's table: tells two quotes of the same figures and second apart, so
   * that each pays for one payment only. Signed with the rest.
   */
  quoteId: Uuid,
  signature: QuoteSignature,
});
export type CctpFeeQuote = z.infer<typeof CctpFeeQuote>;

export const CctpFeeResponse = successEnvelope(CctpFeeQuote);
