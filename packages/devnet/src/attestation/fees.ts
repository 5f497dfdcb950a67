import { FINALITY_THRESHOLD } from '../cctp/abi.js';

/*
 * Circle's attestation fee policy: fast transfers pay 0-14 bps by source domain, standard transfers the
 * standard rate (0 on Circle's side, but never less than the V2.1 on-chain minimum fee), a forwarded
 * transfer adds the forwarding fee, and the total never exceeds the burn's maxFee.
 */

export const FAST_FINALITY = FINALITY_THRESHOLD.fast;
export const STANDARD_FINALITY = FINALITY_THRESHOLD.standard;

/** Forwarding fee estimates in USDC minor units, as GET /v2/burn/USDC/fees answers with ?forward=true. */
export interface ForwardFee {
  low: bigint;
  med: bigint;
  high: bigint;
}

/** Basis points are JSON numbers that may be fractional (1.3); fees are computed in 1/1000 bp. */
const MILLI_BPS_PER_UNIT = 10_000_000n;

export const toMilliBps = (bps: number): bigint => {
  const milli = Math.round(bps * 1000);
  if (!Number.isFinite(bps) || bps < 0 || Math.abs(milli - bps * 1000) > 1e-6) {
    throw new RangeError(
      `A fee rate must be a non-negative number of bps with at most 3 decimals, got ${bps}`,
    );
  }
  return BigInt(milli);
};

/** The fee on an amount at a rate, rounded up: the attester never charges less than its policy. */
export const feeAtRate = (amount: bigint, milliBps: bigint): bigint =>
  (amount * milliBps + MILLI_BPS_PER_UNIT - 1n) / MILLI_BPS_PER_UNIT;

/** Circle's on-chain minimum (TokenMessengerV2.getMinFeeAmount): minFee in 1/1000 bp, at least 1 unit. */
export const onchainMinFee = (amount: bigint, minFee: bigint): bigint => {
  if (minFee === 0n) return 0n;
  const fee = (amount * minFee) / MILLI_BPS_PER_UNIT;
  return fee === 0n ? 1n : fee;
};

export type ForwardAsk =
  { kind: 'none' } | { kind: 'invalid'; reason: string } | { kind: 'valid'; fee: bigint };

export interface FeeInput {
  minFinalityThreshold: number;
  amount: bigint;
  maxFee: bigint;
  /** The policy fee of a fast transfer on this route; undefined when the source has no fast transfer. */
  fastFee: bigint | undefined;
  standardFee: bigint;
  forward: ForwardAsk;
}

export type ForwardOutcome = { kind: 'none' } | { kind: 'requested' } | { kind: 'failed'; reason: string };

export interface FeeDecision {
  finalityThresholdExecuted: typeof FAST_FINALITY | typeof STANDARD_FINALITY;
  feeExecuted: bigint;
  delayReason: 'insufficient_fee' | null;
  forward: ForwardOutcome;
}

/**
 * How the attester executes a burn. Fast when asked for (minFinalityThreshold <= 1000), offered on the
 * route and covered by maxFee; otherwise standard, with delayReason "insufficient_fee" when fast was
 * asked for but not paid. Forwarding that maxFee cannot pay even at the standard rate fails, and the
 * message is attested for the recipient to mint.
 */
export const decideFees = (input: FeeInput): FeeDecision => {
  const forwardFee = input.forward.kind === 'valid' ? input.forward.fee : 0n;
  const forwardRequested: ForwardOutcome =
    input.forward.kind === 'valid'
      ? { kind: 'requested' }
      : input.forward.kind === 'invalid'
        ? { kind: 'failed', reason: input.forward.reason }
        : { kind: 'none' };
  const asksFast = input.minFinalityThreshold <= FAST_FINALITY && input.fastFee !== undefined;

  if (asksFast && (input.fastFee as bigint) + forwardFee <= input.maxFee) {
    return {
      finalityThresholdExecuted: FAST_FINALITY,
      feeExecuted: (input.fastFee as bigint) + forwardFee,
      delayReason: null,
      forward: forwardRequested,
    };
  }
  const delayReason = asksFast ? 'insufficient_fee' : null;
  if (input.standardFee + forwardFee <= input.maxFee) {
    return {
      finalityThresholdExecuted: STANDARD_FINALITY,
      feeExecuted: input.standardFee + forwardFee,
      delayReason,
      forward: forwardRequested,
    };
  }
  return {
    finalityThresholdExecuted: STANDARD_FINALITY,
    feeExecuted: input.standardFee < input.maxFee ? input.standardFee : input.maxFee,
    delayReason,
    forward:
      input.forward.kind === 'valid'
        ? { kind: 'failed', reason: 'maxFee does not cover the forwarding fee' }
        : forwardRequested,
  };
};
