import { ZeroHash } from 'ethers';
import { signAttestation } from '../cctp/attesters.js';
import {
  decodeBurnMessageV2,
  decodeMessageV2,
  fillAttestedFields,
  type BurnMessageV2,
  type MessageV2,
} from '@stablepay/platform/cctp/message-v2';
import type { ChainClient, SentMessage } from './chain-client.js';
import {
  FAST_FINALITY,
  STANDARD_FINALITY,
  decideFees,
  feeAtRate,
  type FeeDecision,
  type ForwardAsk,
} from './fees.js';
import { parseForwardHook } from './forward-hook.js';
import type { ResolvedOptions } from './options.js';
import { deriveNonce, type Attested, type ObservedMessage } from './store.js';

const larger = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/** Whether the destination can be forwarded to: a watched chain with a relayer key. */
export type ForwardTarget = (destinationDomain: number) => { ok: true } | { ok: false; reason: string };

export class ReattestError extends Error {
  override name = 'ReattestError';
}

/**
 * What Circle's attester does with an emitted message: assigns the nonce, decides fast or standard
 * and the fee when the burn is seen, and once the burn has its confirmations signs the message with
 * those fields filled in.
 */
export class MessageAttester {
  private readonly signers: Array<{ privateKey: string }>;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly forwardTarget: ForwardTarget,
  ) {
    this.signers = options.attesterKeys
      .slice(0, options.signatureThreshold)
      .map((privateKey) => ({ privateKey }));
  }

  async observe(client: ChainClient, sent: SentMessage): Promise<ObservedMessage> {
    const header = decodeMessageV2(sent.message);
    const sourceDomain = client.chain.cctpDomain;
    let burn: BurnMessageV2 | undefined;
    if (sent.isBurn) {
      try {
        burn = decodeBurnMessageV2(header.messageBody);
      } catch {
        burn = undefined; // a body too short for a burn is attested as a plain message
      }
    }
    const decision = burn
      ? await this.decide(client, sent.blockNumber, header, burn)
      : this.plainMessage(header.minFinalityThreshold);
    const fast = decision.finalityThresholdExecuted === FAST_FINALITY;
    return {
      sourceChain: client.chain.name,
      sourceDomain,
      destinationDomain: header.destinationDomain,
      transactionHash: sent.transactionHash,
      logIndex: sent.logIndex,
      blockNumber: sent.blockNumber,
      emitted: sent.message,
      nonce: deriveNonce(sourceDomain, sent.transactionHash, sent.logIndex),
      burn,
      decision,
      requiredConfirmations: fast ? this.options.confirmations.fast : this.options.confirmations.standard,
      attested: undefined,
      forward:
        decision.forward.kind === 'requested'
          ? { state: 'PENDING', txHash: null }
          : decision.forward.kind === 'failed'
            ? { state: 'FAILED', txHash: null, reason: decision.forward.reason }
            : undefined,
    };
  }

  private plainMessage(minFinalityThreshold: number): FeeDecision {
    return {
      finalityThresholdExecuted: minFinalityThreshold <= FAST_FINALITY ? FAST_FINALITY : STANDARD_FINALITY,
      feeExecuted: 0n,
      delayReason: null,
      forward: { kind: 'none' },
    };
  }

  private async decide(
    client: ChainClient,
    blockNumber: number,
    header: MessageV2,
    burn: BurnMessageV2,
  ): Promise<FeeDecision> {
    const minimum = await client.minFeeAmount(burn.amount, blockNumber);
    const fastRate = this.options.fastMilliBps(client.chain.cctpDomain);
    return decideFees({
      minFinalityThreshold: header.minFinalityThreshold,
      amount: burn.amount,
      maxFee: burn.maxFee,
      fastFee: fastRate === undefined ? undefined : larger(feeAtRate(burn.amount, fastRate), minimum),
      standardFee: larger(feeAtRate(burn.amount, this.options.standardMilliBps), minimum),
      forward: this.forwardAsk(burn.hookData, header.destinationDomain, header.destinationCaller),
    });
  }

  private forwardAsk(hookData: string, destinationDomain: number, destinationCaller: string): ForwardAsk {
    const request = parseForwardHook(hookData);
    if (!request) return { kind: 'none' };
    if (!request.valid) return { kind: 'invalid', reason: request.reason };
    // As Circle's service: a burn that names a destination caller cannot be forwarded.
    if (destinationCaller !== ZeroHash) return { kind: 'invalid', reason: 'destinationCaller is set' };
    const target = this.forwardTarget(destinationDomain);
    if (!target.ok) return { kind: 'invalid', reason: target.reason };
    return { kind: 'valid', fee: this.options.forwardFee[this.options.forwardFeeTier] };
  }

  /** Whether the burn has its confirmations at this source head. */
  isDue(record: ObservedMessage, sourceHead: number): boolean {
    return !record.attested && sourceHead - record.blockNumber + 1 >= record.requiredConfirmations;
  }

  /** Signs the message; a fast burn expires `fastExpirationBlocks` after the destination's current block. */
  attest(record: ObservedMessage, destinationHead: number | undefined): Attested {
    const finality = record.decision.finalityThresholdExecuted;
    const expires = finality === FAST_FINALITY && record.burn !== undefined && destinationHead !== undefined;
    return this.sign(
      record,
      finality,
      expires ? BigInt(destinationHead + this.options.fastExpirationBlocks) : 0n,
    );
  }

  /**
   * Circle's re-attestation of a pre-finality (fast) message: once the burn is final it is signed as
   * standard with no expiry, the fee unchanged; before that, fast again with a fresh expiration block.
   */
  reattest(record: ObservedMessage, sourceHead: number, destinationHead: number | undefined): Attested {
    if (!record.attested) throw new ReattestError('The message is not attested yet');
    if (record.attested.finalityThresholdExecuted !== FAST_FINALITY) {
      throw new ReattestError('Only a pre-finality (fast) message can be re-attested');
    }
    if (sourceHead - record.blockNumber + 1 >= this.options.confirmations.standard) {
      return this.sign(record, STANDARD_FINALITY, 0n);
    }
    if (destinationHead === undefined) throw new ReattestError('The destination chain is not watched');
    return this.sign(record, FAST_FINALITY, BigInt(destinationHead + this.options.fastExpirationBlocks));
  }

  private sign(
    record: ObservedMessage,
    finalityThresholdExecuted: number,
    expirationBlock: bigint,
  ): Attested {
    const message = fillAttestedFields(record.emitted, {
      nonce: record.nonce,
      finalityThresholdExecuted,
      ...(record.burn ? { burn: { feeExecuted: record.decision.feeExecuted, expirationBlock } } : {}),
    });
    return {
      message,
      attestation: signAttestation(message, this.signers),
      finalityThresholdExecuted,
      expirationBlock: record.burn ? expirationBlock : 0n,
    };
  }
}
