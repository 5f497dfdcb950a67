import { NonceManager, Wallet, toBeHex } from 'ethers';
import { MESSAGE_RECEIVED_TOPIC, messageTransmitterInterface } from './abi.js';
import type { ChainClient } from './chain-client.js';
import type { AttestationLogger } from './options.js';
import type { ForwardProgress, ObservedMessage } from './store.js';

interface RawReceipt {
  transactionHash: string;
  blockNumber: string;
  status: string;
}

const revertReason = (error: unknown): string => {
  const e = error as { reason?: string | null; shortMessage?: string; message?: string };
  return e.reason ?? e.shortMessage ?? e.message ?? String(error);
};

/**
 * The devnet's Forwarding Service: once a forwarded burn is attested it submits receiveMessage on the
 * destination MessageTransmitterV2 from its own relayer key (the fee is already in feeExecuted, so the
 * recipient gets the amount net of it), and follows the mint: PENDING until mined, CONFIRMED once
 * mined, COMPLETE at `confirmations`, FAILED when the mint reverts or cannot be sent.
 */
export class ForwardingRelayer {
  private readonly signers = new Map<number, NonceManager>();

  constructor(
    private readonly destinations: ReadonlyMap<number, ChainClient>,
    relayerKeys: Record<string, string>,
    private readonly confirmations: number,
    private readonly logger: AttestationLogger | undefined,
  ) {
    for (const client of destinations.values()) {
      const key = relayerKeys[client.chain.name];
      if (key) this.signers.set(client.chain.cctpDomain, new NonceManager(new Wallet(key, client.provider)));
    }
  }

  canForwardTo(domain: number): { ok: true } | { ok: false; reason: string } {
    if (!this.destinations.has(domain))
      return { ok: false, reason: `domain ${domain} is not a devnet chain` };
    if (!this.signers.has(domain)) return { ok: false, reason: `no forwarding relayer on domain ${domain}` };
    return { ok: true };
  }

  /** Moves one forwarded message on as far as it can go now. */
  async progress(record: ObservedMessage): Promise<void> {
    const forward = record.forward;
    if (!forward || forward.state === 'COMPLETE' || forward.state === 'FAILED' || !record.attested) return;
    const client = this.destinations.get(record.destinationDomain);
    const signer = this.signers.get(record.destinationDomain);
    if (!client || !signer) return this.fail(record, forward, 'no forwarding relayer on the destination');

    if (!forward.txHash) {
      // A restarted service (or the recipient) may have minted already: never submit a used nonce.
      const minted = await this.findMint(client, record.nonce);
      if (minted) {
        forward.txHash = minted;
      } else {
        const data = messageTransmitterInterface.encodeFunctionData('receiveMessage', [
          record.attested.message,
          record.attested.attestation,
        ]);
        try {
          const tx = await signer.sendTransaction({ to: client.chain.messageTransmitter, data });
          forward.txHash = tx.hash.toLowerCase();
          this.logger?.info('forwarded mint sent', { nonce: record.nonce, txHash: forward.txHash });
        } catch (error) {
          signer.reset();
          if ((error as { code?: string }).code === 'CALL_EXCEPTION') {
            return this.fail(record, forward, `receiveMessage reverted: ${revertReason(error)}`);
          }
          throw error;
        }
      }
    }

    const receipt = (await client.provider.send('eth_getTransactionReceipt', [
      forward.txHash,
    ])) as RawReceipt | null;
    if (!receipt) return;
    if (receipt.status !== '0x1') return this.fail(record, forward, 'the forwarded mint reverted');
    forward.mintBlock = Number(receipt.blockNumber);
    forward.state = 'CONFIRMED';
    const head = await client.head();
    if (head - forward.mintBlock + 1 >= this.confirmations) {
      forward.state = 'COMPLETE';
      this.logger?.info('forwarded mint complete', { nonce: record.nonce, txHash: forward.txHash });
    }
  }

  /** Whether the forwarded mint waits for destination blocks (mined on request on chains that mine only on transactions). */
  waitsForBlocks(record: ObservedMessage): boolean {
    return (
      record.forward?.state === 'CONFIRMED' ||
      (record.forward?.state === 'PENDING' && !!record.forward.txHash)
    );
  }

  /** The transaction that received this nonce on the destination, if any. */
  private async findMint(client: ChainClient, nonce: string): Promise<string | undefined> {
    const used = (await client.provider.send('eth_call', [
      {
        to: client.chain.messageTransmitter,
        data: messageTransmitterInterface.encodeFunctionData('usedNonces', [nonce]),
      },
      'latest',
    ])) as string;
    if (BigInt(used) === 0n) return undefined;
    const logs = (await client.provider.send('eth_getLogs', [
      {
        fromBlock: toBeHex(0),
        toBlock: 'latest',
        address: client.chain.messageTransmitter,
        topics: [MESSAGE_RECEIVED_TOPIC, null, nonce],
      },
    ])) as Array<{ transactionHash: string }>;
    return logs[0]?.transactionHash.toLowerCase();
  }

  private fail(record: ObservedMessage, forward: ForwardProgress, reason: string): void {
    forward.state = 'FAILED';
    forward.reason = reason;
    this.logger?.warn?.('forwarding failed', { nonce: record.nonce, reason });
  }
}
