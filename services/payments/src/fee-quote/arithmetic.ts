import { decimalToBaseUnits, type CctpFeeInputs } from '@stablepay/contracts';

/** Circle's fee unit: 1/1000 of a basis point (TokenMessengerV2's MIN_FEE_MULTIPLIER). */
export const FEE_UNITS_PER_WHOLE = 10_000_000n;
const BPS_PER_WHOLE = 10_000n;
const MICRO_PER_USD = 1_000_000n;
/** Fraction digits a native-token price may have. */
const PRICE_DECIMALS = 18;

/** The operator's fee rules, in exact integer units. */
export interface FeePolicy {
  /** margin on the gas estimate, in hundredths of a percent (20% = 2000) */
  bufferBps: bigint;
  /** the lowest gas fee, in micro-USD */
  minGasFee: bigint;
  /** Circle's fee on the burned amount, in 1/1000 bp (1 bp = 1000) */
  attestationFeeUnits: bigint;
}

/** Every amount of a quote in micro-USD (USDC base units). */
export interface QuoteAmounts {
  productPrice: bigint;
  gasEstimate: bigint;
  gasWithBuffer: bigint;
  feeGas: bigint;
  feeCircle: bigint;
  feeTotal: bigint;
  amountToBurn: bigint;
}

/** n / d rounded half-up, for non-negative n and positive d. */
export const divRoundHalfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);

const divCeil = (n: bigint, d: bigint): bigint => (n + d - 1n) / d;

/** USD cost of the mint and transfer gas, to the micro-dollar (half-up). */
export const gasCostMicroUsd = (inputs: CctpFeeInputs): bigint => {
  const wei = BigInt(inputs.gasUnits) * BigInt(inputs.gasPriceWei);
  const price = decimalToBaseUnits(inputs.nativeToken.usdPrice, PRICE_DECIMALS);
  const scale = 10n ** BigInt(inputs.nativeToken.decimals + PRICE_DECIMALS);
  return divRoundHalfUp(wei * price * MICRO_PER_USD, scale);
};

/**
 * The amounts of a quote for `productPrice` micro-USD:
 * - feeGas = max(gas estimate × (1 + buffer), minimum), each step rounded half-up to the micro-dollar;
 * - Circle takes its fee from the burned amount at mint, so the burn is grossed up for it:
 *   amountToBurn is the smallest whole micro-USDC amount with
 *   amountToBurn − fee(amountToBurn) ≥ productPrice + feeGas, and feeCircle is what that adds.
 * The merchant therefore receives productPrice whichever way Circle rounds its fee.
 */
export const quoteAmounts = (
  productPrice: bigint,
  inputs: CctpFeeInputs,
  policy: FeePolicy,
): QuoteAmounts => {
  const gasEstimate = gasCostMicroUsd(inputs);
  const gasWithBuffer = divRoundHalfUp(gasEstimate * (BPS_PER_WHOLE + policy.bufferBps), BPS_PER_WHOLE);
  const feeGas = gasWithBuffer > policy.minGasFee ? gasWithBuffer : policy.minGasFee;
  const net = productPrice + feeGas;
  const amountToBurn = divCeil(net * FEE_UNITS_PER_WHOLE, FEE_UNITS_PER_WHOLE - policy.attestationFeeUnits);
  const feeCircle = amountToBurn - net;
  return {
    productPrice,
    gasEstimate,
    gasWithBuffer,
    feeGas,
    feeCircle,
    feeTotal: feeGas + feeCircle,
    amountToBurn,
  };
};
