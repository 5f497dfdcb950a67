import { baseUnitsToDecimal, decimalToBaseUnits } from '@stablepay/contracts';

/** a / b rounded half up, for non-negative integers. */
export const divRound = (a: bigint, b: bigint): bigint => (a * 2n + b) / (2n * b);

const MILLION = 1_000_000n;

export interface FeePolicy {
  /** fraction as a 6-decimal string: "0.005000" is 0.5 % */
  rate: string;
  /** token units as a 6-decimal string */
  minimum: string;
}

export interface FeeSplit {
  fee: bigint;
  net: bigint;
}

/** The rate's part of the fee: `gross` × `rate` rounded half up to a base unit. */
export const feeByRate = (gross: bigint, rate: string): bigint =>
  divRound(gross * decimalToBaseUnits(rate), MILLION);

/**
 * The service fee of a withdrawal of `gross` base units: the rate applied and rounded half up to a
 * base unit, never less than the minimum. The rest goes to the destination.
 */
export const splitFee = (gross: bigint, policy: FeePolicy): FeeSplit => {
  const byRate = feeByRate(gross, policy.rate);
  const minimum = decimalToBaseUnits(policy.minimum);
  const fee = byRate > minimum ? byRate : minimum;
  return { fee, net: gross - fee };
};

/** Base units (6 decimals) × a rate with 6 decimals → euro cents, rounded half up. */
export const toEurCents = (units: bigint, eurPerToken: string): bigint =>
  divRound(units * decimalToBaseUnits(eurPerToken), 10_000_000_000n);

/** The VAT contained in a VAT-inclusive amount, at `rateBp` basis points, rounded half up. */
export const vatIncluded = (gross: bigint, rateBp: number): bigint =>
  rateBp === 0 ? 0n : divRound(gross * BigInt(rateBp), 10_000n + BigInt(rateBp));

export const centsToDecimal = (cents: bigint): string => baseUnitsToDecimal(cents, 2);

/** 1900 → "19.00" */
export const bpToPercent = (bp: number): string => baseUnitsToDecimal(BigInt(bp), 2);
