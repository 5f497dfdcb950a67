import { decodeUint, encodeBalanceOf, type Hex } from './abi.js';

export interface Receipt {
  transactionHash: string;
  status: string;
  blockNumber: string;
  from: string;
  to: string | null;
  logs: Array<{ address: string; topics: string[]; data: string }>;
}

export interface Log {
  address: string;
  topics: string[];
  data: string;
  transactionHash: string;
  blockNumber: string;
}

export class RpcError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

let nextId = 1;

/**
 * JSON-RPC to a chain's public endpoints, each tried in turn: reads that must work whichever network
 * the customer's wallet is on (balances on every chain, receipts, the merchant's incoming transfers).
 */
export const rpc = async <T>(urls: readonly string[], method: string, params: unknown[]): Promise<T> => {
  let last: unknown;
  for (const url of urls) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      });
      if (!res.ok) throw new RpcError(`${method}: HTTP ${res.status}`);
      const body = (await res.json()) as { result?: T; error?: { message: string; code?: number } };
      if (body.error) throw new RpcError(body.error.message, body.error.code);
      return body.result as T;
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new RpcError(`${method} failed`);
};

export const tokenBalance = async (urls: readonly string[], token: string, owner: string): Promise<bigint> =>
  decodeUint(await rpc<Hex>(urls, 'eth_call', [{ to: token, data: encodeBalanceOf(owner) }, 'latest']));

/** The account's native balance (what pays gas), in wei. */
export const nativeBalance = async (urls: readonly string[], owner: string): Promise<bigint> =>
  BigInt(await rpc<string>(urls, 'eth_getBalance', [owner, 'latest']));

/** The chain's suggested gas price, in wei. */
export const gasPrice = async (urls: readonly string[]): Promise<bigint> =>
  BigInt(await rpc<string>(urls, 'eth_gasPrice', []));

/** Gas units of a call as the chain would run it now. */
export const estimateGas = async (
  urls: readonly string[],
  tx: { from: string; to: string; data: Hex },
): Promise<bigint> => BigInt(await rpc<string>(urls, 'eth_estimateGas', [tx]));

export const receipt = (urls: readonly string[], hash: string): Promise<Receipt | null> =>
  rpc<Receipt | null>(urls, 'eth_getTransactionReceipt', [hash]);

export const blockNumber = async (urls: readonly string[]): Promise<bigint> =>
  BigInt(await rpc<string>(urls, 'eth_blockNumber', []));

export const getLogs = (
  urls: readonly string[],
  filter: { address: string; topics: Array<string | null>; fromBlock: bigint; toBlock?: bigint },
): Promise<Log[]> =>
  rpc<Log[]>(urls, 'eth_getLogs', [
    {
      address: filter.address,
      topics: filter.topics,
      fromBlock: `0x${filter.fromBlock.toString(16)}`,
      toBlock: filter.toBlock === undefined ? 'latest' : `0x${filter.toBlock.toString(16)}`,
    },
  ]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the transaction is mined; a reverted one is returned too (status 0x0). */
export const waitForReceipt = async (
  urls: readonly string[],
  hash: string,
  opts: { intervalMs?: number; signal?: AbortSignal } = {},
): Promise<Receipt> => {
  for (;;) {
    opts.signal?.throwIfAborted();
    const r = await receipt(urls, hash).catch(() => null);
    if (r) return r;
    await sleep(opts.intervalMs ?? 1000);
  }
};
