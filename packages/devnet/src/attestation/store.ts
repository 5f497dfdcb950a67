import { AbiCoder, keccak256 } from 'ethers';
import type { FeeDecision } from './fees.js';
import type { BurnMessageV2 } from '@stablepay/platform/cctp/message-v2';

export type ForwardState = 'PENDING' | 'CONFIRMED' | 'COMPLETE' | 'FAILED';

export interface ForwardProgress {
  state: ForwardState;
  txHash: string | null;
  /** Why forwarding failed; for logs and tests (Circle's API has no field for it). */
  reason?: string;
  /** Block of the destination mint once it is mined. */
  mintBlock?: number;
}

export interface Attested {
  message: string;
  attestation: string;
  finalityThresholdExecuted: number;
  expirationBlock: bigint;
}

/** A MessageSent the service has seen, and what it made of it. */
export interface ObservedMessage {
  sourceChain: string;
  sourceDomain: number;
  destinationDomain: number;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  /** The bytes as the source chain emitted them (nonce, finality, fee and expiry still 0). */
  emitted: string;
  nonce: string;
  /** The decoded body when a DepositForBurn came with the message. */
  burn: BurnMessageV2 | undefined;
  /** Fast/standard, fee and forwarding as decided when the burn was seen (generic messages: no fee). */
  decision: FeeDecision;
  requiredConfirmations: number;
  attested: Attested | undefined;
  forward: ForwardProgress | undefined;
}

/**
 * Nonces are derived from where the message was emitted, so that a restarted service re-scanning the
 * chains assigns every message the nonce it had before (a fresh one would let a message mint twice).
 */
export const deriveNonce = (sourceDomain: number, transactionHash: string, logIndex: number): string =>
  keccak256(
    AbiCoder.defaultAbiCoder().encode(
      ['string', 'uint32', 'bytes32', 'uint256'],
      ['stablepay devnet cctp nonce', sourceDomain, transactionHash, logIndex],
    ),
  );

const key = (sourceDomain: number, transactionHash: string, logIndex: number): string =>
  `${sourceDomain}:${transactionHash.toLowerCase()}:${logIndex}`;

interface HashEntry {
  record: ObservedMessage;
  /** Set for the hash of a signed message: that message's own attestation (a later one signs other bytes). */
  attestation?: string;
}

/** In memory: the chains are the durable record, and a restart finds everything again by re-scanning. */
export class MessageStore {
  private readonly records = new Map<string, ObservedMessage>();
  private readonly byHash = new Map<string, HashEntry>();

  has(sourceDomain: number, transactionHash: string, logIndex: number): boolean {
    return this.records.has(key(sourceDomain, transactionHash, logIndex));
  }

  add(record: ObservedMessage): void {
    const id = key(record.sourceDomain, record.transactionHash, record.logIndex);
    if (this.records.has(id)) return;
    this.records.set(id, record);
    this.byHash.set(keccak256(record.emitted), { record });
  }

  setAttested(record: ObservedMessage, attested: Attested): void {
    record.attested = attested;
    this.byHash.set(keccak256(attested.message), { record, attestation: attested.attestation });
  }

  /** Messages of one source transaction, ordered by log index as Circle's API orders them. */
  byTransaction(sourceDomain: number, transactionHash: string): ObservedMessage[] {
    const hash = transactionHash.toLowerCase();
    return [...this.records.values()]
      .filter((r) => r.sourceDomain === sourceDomain && r.transactionHash.toLowerCase() === hash)
      .sort((a, b) => a.logIndex - b.logIndex);
  }

  byNonce(sourceDomain: number, nonce: string): ObservedMessage | undefined {
    const wanted = nonce.toLowerCase();
    return [...this.records.values()].find((r) => r.sourceDomain === sourceDomain && r.nonce === wanted);
  }

  /** By keccak256 of the emitted bytes or of a signed message (the v1 API's key). */
  byMessageHash(hash: string): HashEntry | undefined {
    return this.byHash.get(hash.toLowerCase());
  }

  all(): ObservedMessage[] {
    return [...this.records.values()];
  }

  /** A chain went back (a devnet snapshot was reverted): what was in the lost blocks never happened. */
  forgetAbove(sourceChain: string, blockNumber: number): number {
    let forgotten = 0;
    for (const [id, record] of this.records) {
      if (record.sourceChain !== sourceChain || record.blockNumber <= blockNumber) continue;
      this.records.delete(id);
      forgotten++;
    }
    for (const [hash, entry] of this.byHash) {
      if (entry.record.sourceChain === sourceChain && entry.record.blockNumber > blockNumber)
        this.byHash.delete(hash);
    }
    return forgotten;
  }
}
