import { AbiCoder, Interface, keccak256, toBeHex } from 'ethers';
import type { ChainRpc, StateOverride } from './chain-rpc.js';

/*
 * Where a token keeps its balances and allowances: Solidity stores mapping(address => uint256) at
 * keccak256(key . slot) and a nested mapping at keccak256(spender . keccak256(owner . slot)), with the
 * mapping's declared slot depending on the contract's layout (FiatToken v2.2 and the devnet's token
 * differ). The slot is found by asking the token itself: an eth_call of balanceOf with one candidate
 * slot overridden answers the marker only when the candidate is the right one.
 */

const token = new Interface([
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
]);
const abi = AbiCoder.defaultAbiCoder();

/** Declared slots tried; every ERC-20 we serve declares its balances well within these. */
const CANDIDATE_SLOTS = 32;
/** A balance no real account holds, below FiatToken v2.2's blacklist bit. */
const MARKER = 0x5ca1ab1e_00c0ffeen;

export interface TokenSlots {
  balances: number;
  allowances: number;
}

const balanceKey = (owner: string, slot: number): string =>
  keccak256(abi.encode(['address', 'uint256'], [owner, slot]));

const allowanceKey = (owner: string, spender: string, slot: number): string =>
  keccak256(abi.encode(['address', 'bytes32'], [spender, balanceKey(owner, slot)]));

const word = (value: bigint): string => toBeHex(value, 32);

/**
 * The state override under which `owner` holds `balance` and has allowed `spender` `allowance`.
 * Storage cleared to zero earns a refund that lowers the gas a transaction uses but not the gas it
 * needs, so an estimate is truest with both left non-zero after the call, as they are in use.
 */
export const holdingOverride = (
  tokenAddress: string,
  slots: TokenSlots,
  holding: { owner: string; spender: string; balance: bigint; allowance: bigint },
): StateOverride => ({
  [tokenAddress]: {
    stateDiff: {
      [balanceKey(holding.owner, slots.balances)]: word(holding.balance),
      [allowanceKey(holding.owner, holding.spender, slots.allowances)]: word(holding.allowance),
    },
  },
});

/** Whether reading `fn` under `state` answers the marker. */
const answersMarker = async (
  rpc: ChainRpc,
  tokenAddress: string,
  data: string,
  state: StateOverride,
): Promise<boolean | 'refused'> => {
  const answer = await rpc.withStateOverride('eth_call', { to: tokenAddress, data }, state);
  if ('refused' in answer) return 'refused';
  return answer.result !== '0x' && BigInt(answer.result) === MARKER;
};

/**
 * The declared slots of the token's balances and allowances, or why they cannot be found: the node
 * refuses state overrides, or no candidate slot holds them (a token of another layout).
 */
export const findTokenSlots = async (
  rpc: ChainRpc,
  tokenAddress: string,
): Promise<TokenSlots | { unknown: string }> => {
  // Any two distinct addresses: the probe reads them under an override only.
  const owner = '0x00000000000000000000000000000000005ca1ab';
  const spender = '0x0000000000000000000000000000000000c0ffee';
  const find = async (data: string, keyOf: (slot: number) => string, first = 0) => {
    for (let i = 0; i < CANDIDATE_SLOTS; i++) {
      const slot = (first + i) % CANDIDATE_SLOTS;
      const state = { [tokenAddress]: { stateDiff: { [keyOf(slot)]: word(MARKER) } } };
      const found = await answersMarker(rpc, tokenAddress, data, state);
      if (found === 'refused') return 'refused' as const;
      if (found) return slot;
    }
    return undefined;
  };
  const balances = await find(token.encodeFunctionData('balanceOf', [owner]), (s) => balanceKey(owner, s));
  if (balances === 'refused') return { unknown: 'the node refuses state overrides' };
  if (balances === undefined) return { unknown: 'the balances are in no slot tried' };
  // Allowances are most often declared just after balances: tried first.
  const allowances = await find(
    token.encodeFunctionData('allowance', [owner, spender]),
    (s) => allowanceKey(owner, spender, s),
    balances + 1,
  );
  if (allowances === 'refused') return { unknown: 'the node refuses state overrides' };
  if (allowances === undefined) return { unknown: 'the allowances are in no slot tried' };
  return { balances, allowances };
};
