import { JsonRpcProvider, Network, toBeHex } from 'ethers';
import {
  DEPOSIT_FOR_BURN_TOPIC,
  MESSAGE_SENT_TOPIC,
  messageTransmitterInterface,
  tokenMessengerInterface,
} from './abi.js';
import type { AttestationChain } from './options.js';

interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

/** A MessageSent and, when the message is a burn, whether its DepositForBurn came beside it. */
export interface SentMessage {
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  message: string;
  isBurn: boolean;
}

/**
 * New messages up to `scannedTo`, which the caller commits once it has recorded them (so that a
 * failure while recording scans the same blocks again), or the chain went back to `head`.
 */
export type ScanResult =
  | { kind: 'messages'; head: number; scannedTo: number; messages: SentMessage[] }
  | { kind: 'rewound'; head: number };

/**
 * One watched chain over JSON-RPC: raw calls, no cache (eth_getLogs by block ranges from the last
 * scanned block up to the head), so what it reports is what the node holds now.
 */
export class ChainClient {
  readonly provider: JsonRpcProvider;
  private scannedTo: number;

  constructor(
    readonly chain: Required<AttestationChain>,
    private readonly rangeBlocks: number,
  ) {
    this.provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), {
      staticNetwork: true,
      batchMaxCount: 1,
      cacheTimeout: -1,
      pollingInterval: 100,
    });
    this.scannedTo = chain.startBlock - 1;
  }

  async head(): Promise<number> {
    return Number(await this.provider.send('eth_blockNumber', []));
  }

  /** The next blocks' messages, up to `rangeBlocks` blocks a call until the head. */
  async scan(): Promise<ScanResult> {
    const head = await this.head();
    if (head < this.scannedTo) {
      this.scannedTo = head;
      return { kind: 'rewound', head };
    }
    const messages: SentMessage[] = [];
    let scannedTo = this.scannedTo;
    while (scannedTo < head) {
      const from = scannedTo + 1;
      const to = Math.min(head, from + this.rangeBlocks - 1);
      const logs = (await this.provider.send('eth_getLogs', [
        {
          fromBlock: toBeHex(from),
          toBlock: toBeHex(to),
          address: [this.chain.messageTransmitter, this.chain.tokenMessenger],
          topics: [[MESSAGE_SENT_TOPIC, DEPOSIT_FOR_BURN_TOPIC]],
        },
      ])) as RawLog[];
      messages.push(...this.pair(logs.filter((log) => !log.removed)));
      scannedTo = to;
    }
    return { kind: 'messages', head, scannedTo, messages };
  }

  commit(scannedTo: number): void {
    this.scannedTo = Math.max(this.scannedTo, scannedTo);
  }

  /** A MessageSent is a burn when the token messenger's DepositForBurn follows it in the same transaction. */
  private pair(logs: RawLog[]): SentMessage[] {
    const sorted = [...logs].sort(
      (a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex),
    );
    const messages: SentMessage[] = [];
    for (const [index, log] of sorted.entries()) {
      const address = log.address.toLowerCase();
      if (log.topics[0] !== MESSAGE_SENT_TOPIC || address !== this.chain.messageTransmitter.toLowerCase())
        continue;
      const next = sorted[index + 1];
      const isBurn =
        next !== undefined &&
        next.transactionHash === log.transactionHash &&
        next.topics[0] === DEPOSIT_FOR_BURN_TOPIC &&
        next.address.toLowerCase() === this.chain.tokenMessenger.toLowerCase();
      const [message] = messageTransmitterInterface.decodeEventLog('MessageSent', log.data, log.topics);
      messages.push({
        transactionHash: log.transactionHash.toLowerCase(),
        logIndex: Number(log.logIndex),
        blockNumber: Number(log.blockNumber),
        message: message as string,
        isBurn,
      });
    }
    return messages;
  }

  /** TokenMessengerV2.getMinFeeAmount at a block; 0 where the messenger predates V2.1's minimum fee. */
  async minFeeAmount(amount: bigint, blockNumber: number): Promise<bigint> {
    return this.readUint(
      tokenMessengerInterface.encodeFunctionData('getMinFeeAmount', [amount]),
      'getMinFeeAmount',
      blockNumber,
    );
  }

  /** TokenMessengerV2.minFee() now, in 1/1000 bp; 0 where there is none. */
  async minFee(): Promise<bigint> {
    return this.readUint(tokenMessengerInterface.encodeFunctionData('minFee', []), 'minFee');
  }

  private async readUint(
    data: string,
    fn: 'getMinFeeAmount' | 'minFee',
    blockNumber?: number,
  ): Promise<bigint> {
    try {
      const result = (await this.provider.send('eth_call', [
        { to: this.chain.tokenMessenger, data },
        blockNumber === undefined ? 'latest' : toBeHex(blockNumber),
      ])) as string;
      return result === '0x' ? 0n : (tokenMessengerInterface.decodeFunctionResult(fn, result)[0] as bigint);
    } catch (error) {
      // A messenger without the V2.1 minimum fee reverts on the unknown selector.
      if ((error as { code?: string }).code === 'CALL_EXCEPTION') return 0n;
      throw error;
    }
  }

  async mine(): Promise<void> {
    await this.provider.send('evm_mine', []);
  }

  destroy(): void {
    this.provider.destroy();
  }
}
