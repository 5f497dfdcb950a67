import { Interface, JsonRpcProvider, Network, toBeHex } from 'ethers';
import type { AnvilProcess } from './anvil.js';
import { fiatTokenAbi } from './artifacts.js';

/** Explicit gas limits: with interval mining a mint may be sent before the token's deployment is mined. */
export const GAS_LIMITS = { deploy: 4_000_000n, mint: 150_000n } as const;

let tokenInterface: Interface | undefined;

export interface DeployerRequest {
  to: string;
  data: string;
  gasLimit: bigint;
}

/** The fields of an eth_getTransactionReceipt answer that the devnet reads. */
export interface RawReceipt {
  transactionHash: string;
  blockNumber: string;
  status: string;
  contractAddress: string | null;
}

/**
 * One running devnet chain as the devnet itself drives it: the anvil process, a provider and the
 * deployer's address. Work that sends from the deployer runs one task at a time, so its transactions
 * keep their order (and their nonces) whatever callers do in parallel.
 */
export class ChainNode {
  readonly provider: JsonRpcProvider;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    readonly chainId: number,
    readonly anvil: AnvilProcess,
    private readonly deployer: string,
    private readonly pollingIntervalMs: number,
  ) {
    this.provider = new JsonRpcProvider(anvil.rpcUrl, Network.from(chainId), {
      staticNetwork: true,
      pollingInterval: pollingIntervalMs,
      batchMaxCount: 1, // no 10 ms batching stall: the devnet sends its calls one after another
      cacheTimeout: -1, // ethers would answer a repeated read from the last 250 ms
    });
  }

  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task, task);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /**
   * Sends the requests from the deployer back to back and waits until every one is mined and
   * succeeded. The deployer is one of anvil's unlocked accounts, so anvil signs and picks the nonce:
   * signing ten-kilobyte deployments in JavaScript would cost more than everything else at start.
   */
  async sendFromDeployer(requests: DeployerRequest[]): Promise<RawReceipt[]> {
    const hashes: string[] = [];
    for (const request of requests) {
      const tx = { from: this.deployer, to: request.to, data: request.data, gas: toBeHex(request.gasLimit) };
      hashes.push((await this.provider.send('eth_sendTransaction', [tx])) as string);
    }
    const receipts = await Promise.all(hashes.map((hash) => this.receipt(hash)));
    return receipts.map((receipt, index) => {
      if (receipt.status !== '0x1') throw new Error(`Devnet transaction ${hashes[index]} failed`);
      return receipt;
    });
  }

  /** Polls for the receipt directly (see `fresh`): with automine it is there on the first ask. */
  private async receipt(hash: string): Promise<RawReceipt> {
    for (;;) {
      const receipt = (await this.provider.send('eth_getTransactionReceipt', [hash])) as RawReceipt | null;
      if (receipt) return receipt;
      await new Promise((resolve) => setTimeout(resolve, this.pollingIntervalMs));
    }
  }

  mintRequest(token: string, to: string, amount: bigint): DeployerRequest {
    tokenInterface ??= new Interface(fiatTokenAbi());
    const data = tokenInterface.encodeFunctionData('mint', [to, amount]);
    return { to: token, data, gasLimit: GAS_LIMITS.mint };
  }

  /** A raw read, never answered from a cache: balances and code change under our own transactions. */
  private async fresh(method: string, params: unknown[]): Promise<string> {
    return (await this.provider.send(method, params)) as string;
  }

  async hasCode(address: string): Promise<boolean> {
    return (await this.fresh('eth_getCode', [address, 'latest'])) !== '0x';
  }

  /** Native coin straight into the balance (anvil_setBalance): no transaction, no nonce. */
  async addNative(address: string, amount: bigint): Promise<void> {
    const balance = BigInt(await this.fresh('eth_getBalance', [address, 'latest']));
    await this.provider.send('anvil_setBalance', [address, toBeHex(balance + amount)]);
  }

  async mine(blocks: number): Promise<number> {
    await this.provider.send('anvil_mine', [toBeHex(blocks)]);
    return Number(await this.fresh('eth_blockNumber', []));
  }

  snapshot(): Promise<string> {
    return this.provider.send('evm_snapshot', []) as Promise<string>;
  }

  async revert(snapshotId: string): Promise<void> {
    const reverted = (await this.provider.send('evm_revert', [snapshotId])) as boolean;
    if (!reverted) throw new Error(`Unknown devnet snapshot ${snapshotId} on chain ${this.chainId}`);
  }

  async stop(): Promise<void> {
    this.provider.destroy();
    await this.anvil.stop();
  }
}
