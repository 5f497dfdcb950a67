import { keccak256, toUtf8Bytes } from 'ethers';
import { decimalToBaseUnits, type CctpFeeInputs, type NetworkFeeBearer } from '@stablepay/contracts';
import { FEE_UNITS_PER_WHOLE } from '../fee-quote/arithmetic.js';

/*
 * The arithmetic of a gasless payment: the nonce the customer signs, and what the relay's gas and
 * Circle's fee add to what the customer authorises. Every amount is in the token's base units.
 */

/**
 * The authorization's nonce, derived from the merchant and the checkout session (or, without one,
 * the quote that opened the payment intent): the customer never chooses it, so the on-chain
 * AuthorizationUsed(from, nonce) names exactly one session, and one payer can pay a session once.
 */
export const gaslessNonce = (merchantUuid: string, sessionOrIntentId: string): string =>
  keccak256(toUtf8Bytes(`stablepay:gasless:v1:${merchantUuid}:${sessionOrIntentId}`));

const PRICE_DECIMALS = 18;
const MICRO_PER_WHOLE = 1_000_000n;

const divCeil = (n: bigint, d: bigint): bigint => (n + d - 1n) / d;

/**
 * What `gasUnits` of relay gas cost in the token at the chain's gas price and native-coin price
 * now, rounded UP to the base unit (the relay is never short). The price is in USD: a EURC fee
 * counts one USD as one EURC, which the euro's higher value makes an over-estimate, never an under-.
 */
export const relayGasFee = (gasUnits: bigint, inputs: CctpFeeInputs): bigint => {
  const wei = gasUnits * BigInt(inputs.gasPriceWei);
  const price = decimalToBaseUnits(inputs.nativeToken.usdPrice, PRICE_DECIMALS);
  const scale = 10n ** BigInt(inputs.nativeToken.decimals + PRICE_DECIMALS);
  return divCeil(wei * price * MICRO_PER_WHOLE, scale);
};

/**
 * Circle's fee on the relay's burn of a cross-chain payment, in 1/1000 bp of the burned amount.
 * When the customer bears it, the burn is grossed up so that what is minted is still `amount`:
 * the smallest burn B with B − fee(B) ≥ amount, and the fee is B − amount. When the merchant bears
 * it, the burn is `amount` and the fee comes out of it.
 */
export const cctpBurnFee = (amount: bigint, feeUnits: bigint, bearer: NetworkFeeBearer): bigint => {
  if (feeUnits === 0n) return 0n;
  if (bearer === 'merchant') return divCeil(amount * feeUnits, FEE_UNITS_PER_WHOLE);
  return divCeil(amount * FEE_UNITS_PER_WHOLE, FEE_UNITS_PER_WHOLE - feeUnits) - amount;
};

/** What the customer authorises: the amount, plus the fees when the customer bears them. */
export const authorizedTotal = (
  amount: bigint,
  networkFee: bigint,
  cctpFee: bigint,
  bearer: NetworkFeeBearer,
): bigint => (bearer === 'customer' ? amount + networkFee + cctpFee : amount);
