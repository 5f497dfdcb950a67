import { expect } from 'chai';
import {
  decideFees,
  feeAtRate,
  onchainMinFee,
  toMilliBps,
  type FeeDecision,
} from '../src/attestation/index.js';

const amount = 100_000_000n; // 100 USDC
const fastFee = feeAtRate(amount, toMilliBps(1.3)); // 13_000
const base = {
  minFinalityThreshold: 1000,
  amount,
  fastFee,
  standardFee: 0n,
  forward: { kind: 'none' } as const,
};

const expectDecision = (actual: FeeDecision, expected: Partial<FeeDecision>) =>
  expect(actual).to.deep.include(expected);

describe('attestation fees: Circle’s policy', () => {
  it('computes bps fees exactly in integers, rounding up, fractional rates included', () => {
    expect(fastFee).to.equal(13_000n);
    expect(feeAtRate(1n, toMilliBps(1))).to.equal(1n);
    expect(feeAtRate(999_999n, toMilliBps(14))).to.equal(1_400n);
    expect(feeAtRate(amount, 0n)).to.equal(0n);
    expect(() => toMilliBps(1.2345)).to.throw(/at most 3 decimals/);
    expect(() => toMilliBps(-1)).to.throw(RangeError);
  });

  it('applies the V2.1 on-chain minimum with at least one unit', () => {
    expect(onchainMinFee(amount, 0n)).to.equal(0n);
    expect(onchainMinFee(amount, 1_000n)).to.equal(10_000n); // 1 bp
    expect(onchainMinFee(10n, 1n)).to.equal(1n);
  });

  it('executes fast when asked for and maxFee covers the fee', () => {
    expectDecision(decideFees({ ...base, maxFee: 13_000n }), {
      finalityThresholdExecuted: 1000,
      feeExecuted: 13_000n,
      delayReason: null,
      forward: { kind: 'none' },
    });
  });

  it('downgrades to standard with delayReason insufficient_fee when maxFee is below the fast fee', () => {
    expectDecision(decideFees({ ...base, maxFee: 12_999n }), {
      finalityThresholdExecuted: 2000,
      feeExecuted: 0n,
      delayReason: 'insufficient_fee',
    });
  });

  it('executes standard with no delay when standard was asked for, or the route has no fast transfer', () => {
    expectDecision(decideFees({ ...base, minFinalityThreshold: 2000, maxFee: 50_000n }), {
      finalityThresholdExecuted: 2000,
      feeExecuted: 0n,
      delayReason: null,
    });
    expectDecision(decideFees({ ...base, fastFee: undefined, maxFee: 50_000n }), {
      finalityThresholdExecuted: 2000,
      delayReason: null,
    });
    // 1500 is not fast: only thresholds up to 1000 are.
    expectDecision(decideFees({ ...base, minFinalityThreshold: 1500, maxFee: 50_000n }), {
      finalityThresholdExecuted: 2000,
    });
  });

  it('adds the forwarding fee to feeExecuted and never charges more than maxFee', () => {
    const forward = { kind: 'valid', fee: 200_000n } as const;
    expectDecision(decideFees({ ...base, forward, maxFee: 213_000n }), {
      finalityThresholdExecuted: 1000,
      feeExecuted: 213_000n,
      forward: { kind: 'requested' },
    });
    expectDecision(decideFees({ ...base, forward, maxFee: 212_999n }), {
      finalityThresholdExecuted: 2000,
      feeExecuted: 200_000n,
      delayReason: 'insufficient_fee',
      forward: { kind: 'requested' },
    });
    const unpaid = decideFees({ ...base, forward, maxFee: 150_000n });
    expectDecision(unpaid, {
      finalityThresholdExecuted: 2000,
      feeExecuted: 0n,
      forward: { kind: 'failed', reason: 'maxFee does not cover the forwarding fee' },
    });
    expect(unpaid.feeExecuted <= 150_000n).to.equal(true);
  });

  it('caps a standard fee above maxFee at maxFee', () => {
    expectDecision(decideFees({ ...base, minFinalityThreshold: 2000, standardFee: 30n, maxFee: 20n }), {
      feeExecuted: 20n,
    });
  });

  it('attests an unusable forwarding request without the forwarding fee and reports why', () => {
    expectDecision(
      decideFees({
        ...base,
        maxFee: 13_000n,
        forward: { kind: 'invalid', reason: 'destinationCaller is set' },
      }),
      {
        finalityThresholdExecuted: 1000,
        feeExecuted: 13_000n,
        forward: { kind: 'failed', reason: 'destinationCaller is set' },
      },
    );
  });
});
