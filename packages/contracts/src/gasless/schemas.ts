import { z } from 'zod';
import { CheckoutSessionId } from '../checkout/schemas.js';
import { successEnvelope } from '../shared/envelope.js';
import {
  Currency,
  DecimalString,
  PaymentAmountInput,
  moneyAmountString,
  PAYMENT_AMOUNT_MAX,
  PAYMENT_AMOUNT_MIN,
} from '../shared/money.js';
import { queryInt } from '../shared/paging.js';
import {
  ChainId,
  EvmAddress,
  EvmSignature,
  IsoTimestamp,
  MerchantPublicId,
  QuoteSignature,
  Uuid,
} from '../shared/scalars.js';
import { CreatedPayment, PaymentCustomerFields } from '../payments/schemas.js';

/** A whole number of base units or seconds, as a decimal string (JSON numbers cannot hold uint256). */
const UintString = z.string().regex(/^(0|[1-9]\d{0,77})$/, 'must be a whole number in decimal digits');
const Bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32 bytes in hex');

/**
 * A signed EIP-3009 TransferWithAuthorization, as the customer's wallet produced it: the relay
 * submits exactly these values. `value` is in the token's base units (6 decimals).
 */
export const TransferAuthorization = z.object({
  from: EvmAddress,
  to: EvmAddress,
  value: UintString,
  validAfter: UintString,
  validBefore: UintString,
  nonce: Bytes32.toLowerCase(),
  signature: EvmSignature,
});
export type TransferAuthorization = z.infer<typeof TransferAuthorization>;

/** Who pays the relay's network fee: added to what the customer authorises, or taken from what arrives. */
export const NetworkFeeBearer = z.enum(['customer', 'merchant']);
export type NetworkFeeBearer = z.infer<typeof NetworkFeeBearer>;

/**
 * GET /payments/gasless-quote. A checkout session fixes the amount, chain and token; without one,
 * `amount` is required and the quote opens a fresh payment intent (its own nonce).
 */
export const GaslessQuoteQuery = z.object({
  merchantId: MerchantPublicId,
  chainId: queryInt({ min: 1 }),
  token: Currency,
  sessionId: CheckoutSessionId.optional(),
  amount: moneyAmountString({ min: PAYMENT_AMOUNT_MIN, max: PAYMENT_AMOUNT_MAX }).optional(),
  /** the merchant's chain, when the customer pays from another one (cross-chain through CCTP) */
  destinationChainId: queryInt({ min: 1 }).optional(),
});
export type GaslessQuoteQuery = z.infer<typeof GaslessQuoteQuery>;

/** The token's EIP-712 domain, as the customer's wallet must sign it. */
export const TokenDomainView = z.object({
  name: z.string(),
  version: z.string(),
  chainId: ChainId,
  verifyingContract: EvmAddress,
});
export type TokenDomainView = z.infer<typeof TokenDomainView>;

/**
 * GET /internal/gasless/token-domain (chain-watcher): the token's EIP-712 domain on a chain, its name
 * as the contract reports it (the same token is "USD Coin" on one chain and "USDC" on another), so
 * that a quote names exactly what the customer's wallet must sign. 404 when the chain has no such token.
 */
export const GaslessTokenDomainQuery = z.object({
  chainId: queryInt({ min: 1 }),
  token: Currency,
});
export const GaslessTokenDomainResponse = successEnvelope(TokenDomainView);

/**
 * GET /internal/gasless/gas-estimate (chain-watcher): the gas the relay's work on the customer's chain
 * takes, as the quote prices it before anything is signed: eth_estimateGas of a transferWithAuthorization
 * to `to` (signed by a throwaway key for a zero value), plus the two balance writes a real amount adds,
 * plus a margin; across chains (destinationChainId set) the approval and burn as well.
 */
export const GaslessGasEstimateQuery = z.object({
  chainId: queryInt({ min: 1 }),
  token: Currency,
  to: EvmAddress,
  destinationChainId: queryInt({ min: 1 }).optional(),
});
export type GaslessGasEstimateQuery = z.infer<typeof GaslessGasEstimateQuery>;
export const GaslessGasEstimate = z.object({
  /** the submission's gas limit as the relay would set it */
  submitGasUnits: UintString,
  /** across chains, the approval and the burn; 0 on one chain */
  burnGasUnits: UintString,
});
export type GaslessGasEstimate = z.infer<typeof GaslessGasEstimate>;
export const GaslessGasEstimateResponse = successEnvelope(GaslessGasEstimate);

/**
 * Every figure the customer sees before signing, and what to sign. Signed (HMAC-SHA256 over the
 * other fields) and time-limited like the cross-chain fee quote; it pays for one payment.
 */
export const GaslessQuote = z.object({
  quoteId: Uuid,
  merchantId: MerchantPublicId,
  sessionId: CheckoutSessionId.nullable(),
  chainId: ChainId,
  token: Currency,
  destinationChainId: ChainId.nullable(),
  /** what the merchant is owed */
  amount: DecimalString,
  /** the relay's gas on the customer's chain (and, cross-chain, on the merchant's), in the token */
  networkFee: DecimalString,
  /** Circle's fee for a cross-chain transfer, in the token; "0.000000" on one chain */
  cctpFee: DecimalString,
  feeBearer: NetworkFeeBearer,
  /** what the customer authorises, in the token: amount, plus the fees the customer bears */
  total: DecimalString,
  /** the authorization to sign: `to`, `value` (base units of `total`), `nonce`, and the latest `validBefore` */
  authorization: z.object({
    to: EvmAddress,
    value: UintString,
    nonce: Bytes32,
    validBefore: UintString,
  }),
  domain: TokenDomainView,
  expiresAt: IsoTimestamp,
  signature: QuoteSignature,
});
export type GaslessQuote = z.infer<typeof GaslessQuote>;
export const GaslessQuoteResponse = successEnvelope(GaslessQuote);

/**
 * POST /payments/create-gasless body: the customer's signed authorization and who they are. The
 * quote is required when the customer bears a fee, for a cross-chain payment, and without a
 * session (it holds the payment intent); a session's own amount needs none otherwise.
 */
export const CreateGaslessPaymentBody = z
  .object({
    merchantId: MerchantPublicId,
    sessionId: CheckoutSessionId.optional(),
    chainId: ChainId,
    token: Currency,
    destinationChainId: ChainId.optional(),
    /** without a session: the amount the merchant is owed (a session fixes its own) */
    amount: PaymentAmountInput.optional(),
    authorization: TransferAuthorization,
    quote: GaslessQuote.optional(),
    ...PaymentCustomerFields,
  })
  .superRefine((body, ctx) => {
    if (body.sessionId === undefined && body.quote === undefined)
      ctx.addIssue({ code: 'custom', path: ['quote'], message: 'quote is required without a sessionId' });
    if (body.destinationChainId !== undefined && body.quote === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['quote'],
        message: 'quote is required for cross-chain payments',
      });
  });
export type CreateGaslessPaymentBody = z.infer<typeof CreateGaslessPaymentBody>;
export type CreateGaslessPaymentInput = z.input<typeof CreateGaslessPaymentBody>;

/** 201 for a new payment; 200 with the existing payment when the same authorization comes again. */
export const CreateGaslessPaymentResponse = successEnvelope(CreatedPayment);
export type CreateGaslessPaymentResponse = z.infer<typeof CreateGaslessPaymentResponse>;

/**
 * POST /internal/gasless/check (chain-watcher): would the relay's submission of this authorization
 * succeed now (eth_call from the relay), and what would it cost. Refusals are 422 with a detail
 * code (see GaslessRefusalCode); a relay low on gas is 503 with Retry-After. It names the chain,
 * token and destination the way a quote does.
 */
export const GaslessCheckBody = z.object({
  /** the internal id (a quote carries the public one): its wallet receives, its gas budget pays the relay */
  merchantId: Uuid,
  ...GaslessQuote.pick({ chainId: true, token: true, destinationChainId: true }).shape,
  authorization: TransferAuthorization,
});
export type GaslessCheckBody = z.infer<typeof GaslessCheckBody>;

export const GaslessCheck = z.object({
  /** the relay address that will submit (cross-chain: the `to` the customer authorises) */
  relayer: EvmAddress,
  /** gas of the submission (and, cross-chain, of the burn), and the chain's gas price now */
  gasUnits: UintString,
  gasPriceWei: UintString,
});
export type GaslessCheck = z.infer<typeof GaslessCheck>;
export const GaslessCheckResponse = successEnvelope(GaslessCheck);

/** `details[].code` of a refused authorization: what the customer can be told in one sentence. */
export const GaslessRefusalCode = z.enum([
  'authorization_signature_invalid',
  'authorization_insufficient_balance',
  'authorization_nonce_used',
  'authorization_nonce_mismatch',
  'authorization_not_yet_valid',
  'authorization_expired',
  'authorization_window_too_long',
  'authorization_value_mismatch',
  'authorization_recipient_mismatch',
  'token_not_supported',
  /** the token itself refuses the transfer (paused, or the payer or recipient blacklisted by the issuer) */
  'authorization_refused_by_token',
  'relay_gas_budget_spent',
  'relay_low_on_gas',
  /** the payer's new gasless payments per minute are spent (429 with Retry-After) */
  'payer_rate_limited',
  /** the quote does not carry this service's signature for exactly its values */
  'quote_signature_invalid',
  /** the quote's expiresAt has passed: ask for a new one */
  'quote_expired',
  /** the quote is for another merchant, session, chain, token or amount than this payment */
  'quote_mismatch',
  /** the quote has already paid for another payment (409) */
  'quote_used',
]);
export type GaslessRefusalCode = z.infer<typeof GaslessRefusalCode>;
