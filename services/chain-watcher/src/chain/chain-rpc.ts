import {
  FetchRequest,
  JsonRpcProvider,
  Network,
  toQuantity,
  type Filter,
  type JsonRpcPayload,
  type JsonRpcResult,
  type Log,
} from 'ethers';
import type { ChainConfig } from '@stablepay/contracts';
import type { Logger } from '@stablepay/platform';
import type { ChainWatcherMetrics } from '../metrics.js';
import {
  MalformedRpcAnswer,
  parseBlock,
  parseReceipt,
  type BlockFacts,
  type ReceiptFacts,
} from './rpc-facts.js';
import {
  RpcUnavailableError,
  classifyRpcError,
  endpointLabel,
  rpcErrorMessage,
  type RpcAttemptFailure,
} from './rpc-errors.js';

/** Storage slots to read as given, per contract address (eth_call's and eth_estimateGas's third parameter). */
export type StateOverride = Record<string, { stateDiff: Record<string, string> }>;

export interface ChainRpcOptions {
  chain: ChainConfig;
  timeoutMs: number;
  metrics?: ChainWatcherMetrics;
  logger?: Logger;
  /** How long a URL that failed is tried only after the others. */
  cooldownMs?: number;
}

interface Endpoint {
  url: string;
  label: string;
  provider: JsonRpcProvider;
  coolUntil: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON-RPC endpoint whose answers are decoded by the runtime's UTF-8 decoder. ethers decodes a
 * body with its own decoder, written in JavaScript: for the verifier's receipt batches that was a
 * fifth of the chain-watcher's CPU. An answer that is not UTF-8 JSON is left to ethers, so that it
 * fails with ethers' own error, as before.
 */
class NativeDecodingProvider extends JsonRpcProvider {
  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const request = this._getConnection();
    request.body = JSON.stringify(payload);
    request.setHeader('content-type', 'application/json');
    const response = await request.send();
    response.assertOk();
    let answer: unknown;
    try {
      answer = JSON.parse(response.body === null ? '' : utf8.decode(response.body));
    } catch {
      answer = response.bodyJson;
    }
    return (Array.isArray(answer) ? answer : [answer]) as JsonRpcResult[];
  }
}

/**
 * The JSON-RPC endpoints of one chain, tried in the registry's order: the first is the primary, the
 * rest are fallbacks. A URL that just failed moves behind the healthy ones for a short cooldown, so a
 * dead primary costs one failed attempt per cooldown instead of one per call. Reads are never cached
 * (balances, heads and receipts change under us) and every attempt has a deadline.
 */
export class ChainRpc {
  readonly chain: ChainConfig;
  private readonly endpoints: Endpoint[];
  private readonly cooldownMs: number;

  constructor(private readonly opts: ChainRpcOptions) {
    this.chain = opts.chain;
    this.cooldownMs = opts.cooldownMs ?? 5_000;
    const network = Network.from(opts.chain.chainId);
    this.endpoints = opts.chain.rpcUrls.map((url) => {
      const request = new FetchRequest(url);
      request.timeout = opts.timeoutMs;
      // ethers would retry a 429 up to 12 times inside one call; the fallback and backoff are ours.
      request.setThrottleParams({ maxAttempts: 1 });
      const provider = new NativeDecodingProvider(request, network, {
        staticNetwork: network,
        cacheTimeout: -1,
        batchMaxCount: 1,
      });
      return { url, label: endpointLabel(url), provider, coolUntil: 0 };
    });
  }

  get name(): string {
    return this.chain.name;
  }

  /** Runs `fn` against each endpoint in turn until one answers. */
  async call<T>(method: string, fn: (provider: JsonRpcProvider) => Promise<T>): Promise<T> {
    const timer = this.opts.metrics?.rpcDuration.startTimer({ chain: this.chain.name, method });
    try {
      const result = await this.tryEach(method, fn);
      timer?.({ outcome: 'ok' });
      return result;
    } catch (err) {
      timer?.({ outcome: err instanceof RpcUnavailableError ? 'unavailable' : 'error' });
      throw err;
    }
  }

  private async tryEach<T>(method: string, fn: (provider: JsonRpcProvider) => Promise<T>): Promise<T> {
    const now = Date.now();
    const healthy = this.endpoints.filter((e) => e.coolUntil <= now);
    const cooling = this.endpoints.filter((e) => e.coolUntil > now);
    const failures: RpcAttemptFailure[] = [];
    for (const endpoint of [...healthy, ...cooling]) {
      try {
        const result = await fn(endpoint.provider);
        endpoint.coolUntil = 0;
        if (failures.length > 0) this.opts.metrics?.rpcFallbacks.inc({ chain: this.chain.name });
        return result;
      } catch (err) {
        const kind = classifyRpcError(err);
        if (kind === undefined) throw err;
        endpoint.coolUntil = Date.now() + this.cooldownMs;
        failures.push({ endpoint: endpoint.label, kind, message: rpcErrorMessage(err) });
        this.opts.metrics?.rpcErrors.inc({ chain: this.chain.name, method, kind });
        this.opts.logger?.warn('rpc call failed', {
          chain: this.chain.name,
          endpoint: endpoint.label,
          method,
          kind,
          err: rpcErrorMessage(err),
        });
      }
    }
    throw new RpcUnavailableError(this.chain.name, method, failures);
  }

  blockNumber(): Promise<number> {
    return this.call('eth_blockNumber', (p) => p.getBlockNumber());
  }

  /*
   * Receipts and blocks are read raw and reduced to the facts verification needs: ethers' full
   * formatting checksums every address of every log, and on nodes that omit effectiveGasPrice it
   * fetches the whole transaction as well; neither is needed to judge a transfer.
   */
  receipt(txHash: string): Promise<ReceiptFacts | null> {
    return this.call('eth_getTransactionReceipt', async (p) =>
      parseReceipt(await p.send('eth_getTransactionReceipt', [txHash])),
    );
  }

  /**
   * Many receipts in one JSON-RPC batch request: one round trip for a verification pass instead of
   * one per payment. A node that answers any item with an error fails the whole call (the next
   * endpoint is tried); callers fall back to single calls when batches are refused altogether.
   */
  receipts(txHashes: readonly string[]): Promise<Map<string, ReceiptFacts | null>> {
    return this.batch('eth_getTransactionReceipt', txHashes, (hash) => [hash], parseReceipt);
  }

  block(blockNumber: number): Promise<BlockFacts | null> {
    return this.call('eth_getBlockByNumber', async (p) =>
      parseBlock(await p.send('eth_getBlockByNumber', [toQuantity(blockNumber), false])),
    );
  }

  /** Many blocks (headers only) in one JSON-RPC batch request, as receipts() does. */
  blocks(blockNumbers: readonly number[]): Promise<Map<number, BlockFacts | null>> {
    return this.batch('eth_getBlockByNumber', blockNumbers, (n) => [toQuantity(n), false], parseBlock);
  }

  private batch<K, T>(
    method: string,
    keys: readonly K[],
    paramsOf: (key: K) => unknown[],
    parse: (answer: unknown) => T,
  ): Promise<Map<K, T>> {
    return this.call(`${method}[batch]`, async (p) => {
      const answers = (await p._send(
        keys.map((key, i) => ({ jsonrpc: '2.0' as const, id: i + 1, method, params: paramsOf(key) })),
      )) as Array<{ id: number; result?: unknown; error?: { message?: string } }>;
      const out = new Map<K, T>();
      for (const answer of answers) {
        const key = keys[answer.id - 1];
        if (key === undefined) throw new MalformedRpcAnswer('batch answer with an unknown id');
        if (answer.error)
          throw new MalformedRpcAnswer(`batch item failed: ${answer.error.message ?? 'error'}`);
        out.set(key, parse(answer.result));
      }
      if (out.size !== keys.length) throw new MalformedRpcAnswer('batch answer is missing items');
      return out;
    });
  }

  logs(filter: Filter): Promise<Log[]> {
    return this.call('eth_getLogs', (p) => p.getLogs(filter));
  }

  /**
   * Several read-only calls at one block, in one JSON-RPC batch request: every answer describes the
   * same state of the chain.
   */
  callsAt(
    calls: ReadonlyArray<{ to: string; data: string }>,
    blockNumber: number,
  ): Promise<Map<number, string>> {
    return this.batch(
      'eth_call',
      calls.map((_, i) => i),
      (i) => [calls[i], toQuantity(blockNumber)],
      (answer) => {
        if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]*$/.test(answer))
          throw new MalformedRpcAnswer('eth_call answered something that is not hex data');
        return answer;
      },
    );
  }

  ethCall(to: string, data: string): Promise<string> {
    return this.call('eth_call', (p) => p.call({ to, data }));
  }

  /** Transactions sent from `address`: mined (`latest`) or including the node's mempool (`pending`). */
  transactionCount(address: string, tag: 'latest' | 'pending'): Promise<number> {
    return this.call('eth_getTransactionCount', async (p) =>
      Number(BigInt(await p.send('eth_getTransactionCount', [address, tag]))),
    );
  }

  /** A revert comes back as CALL_EXCEPTION (the same on every node), never as an RPC failure. */
  estimateGas(tx: { from: string; to: string; data: string }): Promise<bigint> {
    return this.call('eth_estimateGas', (p) => p.estimateGas(tx));
  }

  /**
   * eth_call or eth_estimateGas against the latest state as amended by `state` (the third,
   * state-override parameter: storage slots per contract). Not every node takes it: a node that
   * answers with an error (a revert, or a refusal of the parameter) answers `refused`, and only a
   * transport failure tries the next endpoint.
   */
  withStateOverride(
    method: 'eth_call' | 'eth_estimateGas',
    tx: { from?: string; to: string; data: string },
    state: StateOverride,
  ): Promise<{ result: string } | { refused: string }> {
    return this.call(`${method}[state]`, async (p) => {
      try {
        return { result: String(await p.send(method, [tx, 'latest', state])) };
      } catch (err) {
        const kind = classifyRpcError(err);
        if (kind !== undefined && kind !== 'rpc_error') throw err;
        return { refused: rpcErrorMessage(err) };
      }
    });
  }

  /**
   * Fees for a transaction sent now: EIP-1559 (twice the latest base fee plus the node's suggested
   * tip, so a few full blocks do not strand it) where the chain has a base fee, a gas price otherwise.
   */
  feeSuggestion(): Promise<FeeSuggestion> {
    return this.call('fee_suggestion', async (p) => {
      const block = (await p.send('eth_getBlockByNumber', ['latest', false])) as {
        baseFeePerGas?: string | null;
      } | null;
      if (!block) throw new MalformedRpcAnswer('no latest block');
      if (block.baseFeePerGas === undefined || block.baseFeePerGas === null) {
        return { kind: 'legacy', gasPrice: BigInt(await p.send('eth_gasPrice', [])) };
      }
      const baseFee = BigInt(block.baseFeePerGas);
      let tip: bigint;
      try {
        tip = BigInt(await p.send('eth_maxPriorityFeePerGas', []));
      } catch (err) {
        if (classifyRpcError(err) !== 'rpc_error') throw err;
        // A node without eth_maxPriorityFeePerGas: its gas price minus the base fee is the same idea.
        const gasPrice = BigInt(await p.send('eth_gasPrice', []));
        tip = gasPrice > baseFee ? gasPrice - baseFee : 1n;
      }
      return { kind: 'eip1559', maxPriorityFeePerGas: tip, maxFeePerGas: 2n * baseFee + tip };
    });
  }

  /**
   * eth_sendRawTransaction. A node's answer is returned, never retried elsewhere: `known` (the node
   * has this very transaction), `nonce_taken` (the nonce is used, by this transaction or another
   * with the same nonce, mined or pooled: look for receipts), or `rejected` with the node's
   * message. Only transport failures try the next URL.
   */
  broadcast(rawTx: string): Promise<BroadcastResult> {
    return this.call('eth_sendRawTransaction', async (p): Promise<BroadcastResult> => {
      try {
        await p.send('eth_sendRawTransaction', [rawTx]);
        return { kind: 'accepted' };
      } catch (err) {
        const message = nodeErrorMessage(err);
        if (message === undefined) throw err;
        if (KNOWN_TX.test(message)) return { kind: 'known', message };
        if (NONCE_TAKEN.test(message)) return { kind: 'nonce_taken', message };
        return { kind: 'rejected', message };
      }
    });
  }

  destroy(): void {
    for (const e of this.endpoints) e.provider.destroy();
  }
}

export type FeeSuggestion =
  | { kind: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { kind: 'legacy'; gasPrice: bigint };

export type BroadcastResult =
  | { kind: 'accepted' }
  | { kind: 'known'; message: string }
  | { kind: 'nonce_taken'; message: string }
  | { kind: 'rejected'; message: string };

/* geth, erigon, nethermind, reth and anvil word these differently. */
/** The node already holds this very transaction. */
const KNOWN_TX =
  /already known|known transaction|already imported|already exists|already in (the )?(mem)?pool|ALREADY_EXISTS/i;
/** The nonce is spent or pooled by some transaction, maybe this one: only receipts can tell. */
const NONCE_TAKEN =
  /nonce too low|nonce has already been used|replacement transaction underpriced|replacement fee too low/i;

/** The message of a JSON-RPC error the node answered with; undefined for transport failures. */
const nodeErrorMessage = (err: unknown): string | undefined => {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    error?: { message?: unknown };
    info?: { error?: { message?: unknown } };
  };
  const message = e.error?.message ?? e.info?.error?.message;
  return typeof message === 'string' ? message.slice(0, 300) : undefined;
};

/** One ChainRpc per chain of the registry, by chain id. */
export class ChainClients {
  private readonly byId = new Map<number, ChainRpc>();

  constructor(chains: ChainConfig[], opts: Omit<ChainRpcOptions, 'chain'>) {
    for (const chain of chains) this.byId.set(chain.chainId, new ChainRpc({ ...opts, chain }));
  }

  get(chainId: number): ChainRpc | undefined {
    return this.byId.get(chainId);
  }

  all(): ChainRpc[] {
    return [...this.byId.values()];
  }

  destroy(): void {
    for (const rpc of this.byId.values()) rpc.destroy();
  }
}
