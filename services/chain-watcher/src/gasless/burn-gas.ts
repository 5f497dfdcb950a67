import type { ChainConfig } from '@stablepay/contracts';
import { Interface, MaxUint256, ZeroHash, getAddress, zeroPadValue } from 'ethers';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { allowanceOf, encodeApprove } from '../chain/fiat-token.js';
import { findTokenSlots, holdingOverride, type TokenSlots } from '../chain/token-slots.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { gasLimitFor } from '../relayer/fees.js';

/**
 * Gas of the relay's approval of the token messenger and its CCTP burn where they cannot be
 * estimated (a node that refuses state overrides): depositForBurn of TokenMessengerV2 measures about
 * 150k and the approval about 46k.
 */
export const CROSS_CHAIN_BURN_GAS_UNITS = 200_000n;

/** CCTP v2's finality threshold of a fast transfer: attested at once where Circle offers it. */
const FAST_FINALITY = 1000;

const tokenMessenger = new Interface([
  'function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold)',
]);

/** A burn of the relay's USDC on `source` to `mintRecipient` on `destination`. */
export interface BurnOrder {
  source: ChainConfig;
  destination: ChainConfig;
  amount: bigint;
  mintRecipient: string;
  /** the most Circle's attestation may take (the quote's cctpFee) */
  maxFee: bigint;
}

/** The relay on the burn's source chain: its address, and the chain's RPC it sends through. */
export interface SourceRelay {
  rpc: ChainRpc;
  relayer: string;
}

/**
 * The burn: minted to the merchant wallet on its chain, Circle's fee at most `maxFee`, fast where
 * Circle offers it. Anyone may receive the message there (no destination caller).
 */
export const encodeBurn = (b: BurnOrder): string =>
  tokenMessenger.encodeFunctionData('depositForBurn', [
    b.amount,
    b.destination.cctpDomain,
    zeroPadValue(getAddress(b.mintRecipient), 32),
    getAddress(b.source.tokens.USDC!),
    ZeroHash,
    b.maxFee,
    FAST_FINALITY,
  ]);

/** The token's storage layout, found once per chain and token (and remembered when not found). */
const slotsOf = async (
  ctx: WatcherContext,
  rpc: ChainRpc,
  usdc: string,
): Promise<TokenSlots | { unknown: string }> => {
  const key = `${rpc.chain.chainId}:${usdc.toLowerCase()}`;
  const known = ctx.tokenSlots.get(key);
  if (known) return known;
  const found = await findTokenSlots(rpc, usdc);
  ctx.tokenSlots.set(key, found);
  return found;
};

/**
 * The relay's gas on the customer's chain after a cross-chain submission, with the relay's
 * gas-limit margin: the approval of the token messenger while the relay's allowance is short of the
 * amount (once per chain), and the burn. The burn is estimated (eth_estimateGas from the relay)
 * under a state override in which the relay holds the amount and has allowed the messenger, since
 * before the submission it holds nothing to burn. Where the node refuses the override, or the
 * token's layout is not found, the fixed figure is used and said so (log and metric).
 */
export const burnGasUnits = async (
  ctx: WatcherContext,
  relay: SourceRelay,
  b: BurnOrder,
): Promise<bigint> => {
  const { rpc, relayer } = relay;
  const chain = b.source.name;
  const usdc = getAddress(b.source.tokens.USDC!);
  const messenger = getAddress(b.source.cctp!.tokenMessenger);
  const fixed = (why: string): bigint => {
    ctx.metrics.gaslessBurnGasEstimates.inc({ chain, outcome: 'fixed' });
    ctx.logger.warn('the relay burn gas is not estimable: the fixed figure is used', { chain, why });
    return CROSS_CHAIN_BURN_GAS_UNITS;
  };
  const slots = await slotsOf(ctx, rpc, usdc);
  if ('unknown' in slots) return fixed(slots.unknown);
  // As after the relay's submission and approval: it holds the amount (and keeps the network fee
  // it was paid), and has allowed the messenger without limit. The token's total supply is left as
  // it is: on a chain where USDC circulates it covers any amount burned.
  const state = holdingOverride(usdc, slots, {
    owner: relayer,
    spender: messenger,
    balance: b.amount + 1n,
    allowance: MaxUint256,
  });
  const burn = await rpc.withStateOverride(
    'eth_estimateGas',
    { from: relayer, to: messenger, data: encodeBurn(b) },
    state,
  );
  if ('refused' in burn) return fixed(`the burn estimate was refused: ${burn.refused}`);
  let gas = gasLimitFor(BigInt(burn.result));
  if ((await allowanceOf(rpc, usdc, relayer, messenger)) < b.amount) {
    const approve = { from: relayer, to: usdc, data: encodeApprove(messenger, MaxUint256) };
    gas += gasLimitFor(await rpc.estimateGas(approve));
  }
  ctx.metrics.gaslessBurnGasEstimates.inc({ chain, outcome: 'estimated' });
  return gas;
};
