import { AbiCoder, Interface, getAddress, id, zeroPadValue } from 'ethers';
import type { ChainRpc } from './chain-rpc.js';
import type { RawLog } from './rpc-facts.js';

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');

const erc20 = new Interface(['function balanceOf(address owner) view returns (uint256)']);

export interface TokenTransfer {
  /** checksummed contract address that emitted the log */
  token: string;
  from: string;
  to: string;
  value: bigint;
  logIndex: number;
}

/**
 * Checksummed addresses by the text they were given as. Logs name the same few addresses over and
 * over (the token, the merchant wallets, the payers), and each checksum is a keccak hash: remembered
 * here, a scan or a receipt costs a map lookup per address. The same text always has the same
 * answer (or fails again, uncached); the map is emptied when it grows past its bound.
 */
const checksummed = new Map<string, string>();
const CHECKSUMMED_MAX = 10_000;
const checksumAddress = (address: string): string => {
  let known = checksummed.get(address);
  if (known === undefined) {
    known = getAddress(address);
    if (checksummed.size >= CHECKSUMMED_MAX) checksummed.clear();
    checksummed.set(address, known);
  }
  return known;
};

/**
 * An ERC-20 Transfer: three topics (signature, from, to) and the amount as data. ERC-721 Transfer
 * has the same signature with the token id as a fourth topic; it is not a token payment.
 */
export const decodeTransfer = (log: RawLog): TokenTransfer | undefined => {
  if (log.removed) return undefined;
  if (log.topics.length !== 3 || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) return undefined;
  if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) return undefined;
  const word = (topic: string) => checksumAddress(`0x${topic.slice(-40)}`);
  return {
    token: checksumAddress(log.address),
    from: word(log.topics[1]!),
    to: word(log.topics[2]!),
    value: BigInt(log.data),
    logIndex: log.index ?? log.logIndex ?? 0,
  };
};

/** An address as an indexed topic (32 bytes, left-padded), for eth_getLogs filters. */
export const addressTopic = (address: string): string => zeroPadValue(getAddress(address), 32).toLowerCase();

/** balanceOf(owner) in base units; throws RpcUnavailableError when every URL fails. */
export const balanceOf = async (rpc: ChainRpc, token: string, owner: string): Promise<bigint> => {
  const data = erc20.encodeFunctionData('balanceOf', [owner]);
  const result = await rpc.ethCall(token, data);
  const [balance] = AbiCoder.defaultAbiCoder().decode(['uint256'], result);
  return balance as bigint;
};

/**
 * balanceOf of many (token, owner) pairs at one block, in batches of `chunk` calls. Every figure
 * is of the same block, so they can be compared with a ledger cut at that block.
 */
export const balancesAt = async (
  rpc: ChainRpc,
  pairs: ReadonlyArray<{ token: string; owner: string }>,
  blockNumber: number,
  chunk = 100,
): Promise<bigint[]> => {
  const out: bigint[] = [];
  for (let i = 0; i < pairs.length; i += chunk) {
    const slice = pairs.slice(i, i + chunk);
    const answers = await rpc.callsAt(
      slice.map((p) => ({ to: p.token, data: erc20.encodeFunctionData('balanceOf', [p.owner]) })),
      blockNumber,
    );
    slice.forEach((_, j) => {
      const [balance] = AbiCoder.defaultAbiCoder().decode(['uint256'], answers.get(j)!);
      out.push(balance as bigint);
    });
  }
  return out;
};
