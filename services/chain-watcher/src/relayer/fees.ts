import type { FeeSuggestion } from '../chain/chain-rpc.js';

/** What a relayer transaction pays: the columns of an attempt. */
export interface AttemptFees {
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  gasPrice: bigint | null;
}

export const feesOf = (s: FeeSuggestion): AttemptFees =>
  s.kind === 'eip1559'
    ? { maxFeePerGas: s.maxFeePerGas, maxPriorityFeePerGas: s.maxPriorityFeePerGas, gasPrice: null }
    : { maxFeePerGas: null, maxPriorityFeePerGas: null, gasPrice: s.gasPrice };

/** +12.5%, rounded up: nodes refuse a replacement that does not raise every fee by at least 10%. */
export const bump = (fee: bigint): bigint => fee + (fee + 7n) / 8n;

/**
 * Fees of a replacement: every fee of the stuck transaction raised by 12.5%, or what the chain asks
 * for now if that is more. The type stays the stuck transaction's, so the two compare like for like.
 */
export const replacementFees = (stuck: AttemptFees, now: FeeSuggestion): AttemptFees => {
  const nowTip = now.kind === 'eip1559' ? now.maxPriorityFeePerGas : now.gasPrice;
  const nowMax = now.kind === 'eip1559' ? now.maxFeePerGas : now.gasPrice;
  if (stuck.gasPrice !== null) {
    const gasPrice = bump(stuck.gasPrice);
    return {
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      gasPrice: gasPrice > nowMax ? gasPrice : nowMax,
    };
  }
  const tip = [bump(stuck.maxPriorityFeePerGas ?? 0n), nowTip].reduce((a, b) => (a > b ? a : b));
  const max = [bump(stuck.maxFeePerGas ?? 0n), nowMax, tip].reduce((a, b) => (a > b ? a : b));
  return { maxFeePerGas: max, maxPriorityFeePerGas: tip, gasPrice: null };
};

/** The node's estimate plus a quarter: state may change between the estimate and the block. */
export const gasLimitFor = (estimate: bigint): bigint => estimate + estimate / 4n;
