import { z } from 'zod';
import { CctpFeeQuote } from '../cctp/fee.js';
import { CheckoutSessionId } from '../checkout/schemas.js';
import { successEnvelope } from '../shared/envelope.js';
import { LanguageCode } from '../shared/language-code.js';
import { Currency, PaymentAmountInput } from '../shared/money.js';
import {
  ChainId,
  EvmAddress,
  EvmSignature,
  JsonObject,
  MerchantPublicId,
  TxHash,
  Uuid,
} from '../shared/scalars.js';
import { PaymentStatus } from './status.js';

export const PAYMENT_METADATA_MAX_BYTES = 10240;

/** Bytes of the UTF-8 JSON serialisation (the 10 KB metadata limit is measured on this). */
export function jsonByteLength(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value) ?? '');
}

/** UTF-8 length without TextEncoder/Buffer, so the contracts also load in the checkout page. */
function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Who pays and what the merchant attaches: the same fields on every public way to create a payment. */
export const PaymentCustomerFields = {
  customerEmail: z.email().max(255),
  reference: z.string().max(255).optional(),
  description: z.string().max(500).optional(),
  metadata: JsonObject.refine((m) => jsonByteLength(m) <= PAYMENT_METADATA_MAX_BYTES, {
    message: `metadata must be at most ${PAYMENT_METADATA_MAX_BYTES} bytes of JSON`,
  }).optional(),
  /**
   * The checkout page's language (en, de, fr, es, it): the customer's e-mails (receipt, refund) are
   * written in it. English without it. Our extension of the spec's body.
   */
  language: LanguageCode.optional(),
};

export const BridgeKitInfo = z.object({
  burnTxHash: TxHash.toLowerCase(),
  mintTxHash: TxHash.toLowerCase().optional(),
});

/**
 * POST /payments/create-public body (called by the widget after the customer's transaction).
 * - amounts: JSON number or decimal string, 0.01..1,000,000, at most 6 decimals, out as canonical
 *   6-decimal strings ("12.500000");
 * - txHash and bridge-kit hashes are lower-cased so the same transaction is always one payment;
 * - unknown fields are ignored (stripped), not rejected;
 * - same-chain payments (isCrossChain not true) require expectedAmount; bridgeKit and feeQuote are
 *   only allowed when isCrossChain is true, and a cross-chain payment needs one of them.
 */
export const CreatePublicPaymentBody = z
  .object({
    merchantId: MerchantPublicId,
    txHash: TxHash.toLowerCase(),
    amount: PaymentAmountInput,
    expectedAmount: PaymentAmountInput.optional(),
    token: Currency,
    chainId: ChainId,
    fromAddress: EvmAddress,
    toAddress: EvmAddress,
    isCrossChain: z.boolean().optional(),
    bridgeKit: BridgeKitInfo.optional(),
    /** @deprecated legacy relayer flow; use bridgeKit */
    feeQuote: CctpFeeQuote.optional(),
    destinationChainId: ChainId.optional(),
    sessionId: CheckoutSessionId.optional(),
    /**
     * EIP-712 signature by `fromAddress` over the session and the payment (see docs/api/README.md,
     * "Checkout session links"): what lets a payment claim a session without the exact QR amount.
     */
    sessionProof: EvmSignature.optional(),
    ...PaymentCustomerFields,
  })
  .superRefine((body, ctx) => {
    // The flow decides how the payment is followed: bridge-kit (burn hash) or the legacy relayer
    // (fee quote). A cross-chain payment with neither could never be verified.
    if (body.isCrossChain === true && body.bridgeKit === undefined && body.feeQuote === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['bridgeKit'],
        message: 'bridgeKit (or the deprecated feeQuote) is required for cross-chain payments',
      });
    }
    if (body.sessionProof !== undefined && body.sessionId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['sessionProof'], message: 'sessionProof needs a sessionId' });
    }
    if (body.isCrossChain !== true) {
      if (body.expectedAmount === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['expectedAmount'],
          message: 'expectedAmount is required for same-chain payments',
        });
      }
      for (const field of ['bridgeKit', 'feeQuote'] as const) {
        if (body[field] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${field} is only allowed when isCrossChain is true`,
          });
        }
      }
    }
  });
export type CreatePublicPaymentBody = z.infer<typeof CreatePublicPaymentBody>;
export type CreatePublicPaymentInput = z.input<typeof CreatePublicPaymentBody>;

export const CreatedPayment = z.object({
  paymentId: Uuid,
  status: PaymentStatus,
  isCrossChain: z.boolean(),
});
export type CreatedPayment = z.infer<typeof CreatedPayment>;
/** 201 for a new payment, 200 with the existing payment when txHash is already known. */
export const CreatePublicPaymentResponse = successEnvelope(CreatedPayment);

export const PaymentIdParams = z.object({ id: Uuid });
