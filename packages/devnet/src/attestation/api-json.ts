import { SigningKey } from 'ethers';
import { FAST_FINALITY, STANDARD_FINALITY, type ForwardFee } from './fees.js';
import { bytes32ToAddress, decodeBurnMessageV2, decodeMessageV2 } from '@stablepay/platform/cctp/message-v2';
import type { ObservedMessage } from './store.js';

/*
 * The JSON of Circle's attestation API (Iris): numbers as decimal strings, addresses as 20-byte hex,
 * nonces as bytes32 hex, cctpVersion a number.
 */

export const CCTP_VERSION = 2;

/** Circle's API prints EVM addresses in lower case; a word that is no EVM address (Solana) stays whole. */
const address = (word: string): string =>
  BigInt(word) >> 160n === 0n ? bytes32ToAddress(word).toLowerCase() : word;

const decodedMessage = (message: string, withBurnBody: boolean) => {
  const header = decodeMessageV2(message);
  const body = withBurnBody ? decodeBurnMessageV2(header.messageBody) : undefined;
  return {
    sourceDomain: String(header.sourceDomain),
    destinationDomain: String(header.destinationDomain),
    nonce: header.nonce,
    sender: address(header.sender),
    recipient: address(header.recipient),
    destinationCaller: address(header.destinationCaller),
    minFinalityThreshold: String(header.minFinalityThreshold),
    finalityThresholdExecuted: String(header.finalityThresholdExecuted),
    messageBody: header.messageBody,
    decodedMessageBody: body
      ? {
          burnToken: address(body.burnToken),
          mintRecipient: address(body.mintRecipient),
          amount: body.amount.toString(),
          messageSender: address(body.messageSender),
          maxFee: body.maxFee.toString(),
          feeExecuted: body.feeExecuted.toString(),
          expirationBlock: body.expirationBlock.toString(),
          hookData: body.hookData,
        }
      : null,
  };
};

/**
 * How an unsigned message is written: `placeholders` (message "0x", attestation "PENDING", nonce
 * ""), or `nulls`, the other shape Circle's docs and clients show (attestation, message, eventNonce
 * and the decoded fields not known yet null).
 */
export type PendingShape = 'placeholders' | 'nulls';

/**
 * One entry of GET /v2/messages. Before the confirmations Circle has no signed message yet: message
 * "0x", attestation "PENDING", no nonce, and delayReason says when a fast burn waits for standard.
 */
export const messageJson = (record: ObservedMessage, pending: PendingShape = 'placeholders') => {
  const forward = {
    forwardState: record.forward?.state ?? null,
    forwardTxHash: record.forward?.txHash ?? null,
  };
  if (!record.attested && pending === 'nulls') {
    return {
      message: null,
      eventNonce: null,
      attestation: null,
      decodedMessage: {
        sourceDomain: String(record.sourceDomain),
        destinationDomain: String(record.destinationDomain),
        nonce: null,
        finalityThresholdExecuted: null,
        decodedMessageBody: null,
      },
      cctpVersion: CCTP_VERSION,
      status: 'pending_confirmations',
      delayReason: record.decision.delayReason ?? null,
      ...forward,
    };
  }
  if (!record.attested) {
    return {
      message: '0x',
      eventNonce: '',
      attestation: 'PENDING',
      decodedMessage: null,
      cctpVersion: CCTP_VERSION,
      status: 'pending_confirmations',
      delayReason: record.decision.delayReason,
      ...forward,
    };
  }
  return {
    message: record.attested.message,
    eventNonce: record.nonce,
    attestation: record.attested.attestation,
    decodedMessage: decodedMessage(record.attested.message, record.burn !== undefined),
    cctpVersion: CCTP_VERSION,
    status: 'complete',
    delayReason: null,
    ...forward,
  };
};

/** GET /v1/attestations/{messageHash}. */
export const v1AttestationJson = (attestation: string | undefined) =>
  attestation
    ? { attestation, status: 'complete' }
    : { attestation: 'PENDING', status: 'pending_confirmations' };

export interface RouteFees {
  /** Basis points; undefined when the source has no fast transfer. */
  fastBps: number | undefined;
  standardBps: number;
  forwardFee: ForwardFee | undefined;
}

/** GET /v2/burn/USDC/fees/{src}/{dst}: bps (may be fractional), forwardFee in USDC minor units. */
export const feesJson = (fees: RouteFees) => {
  const entry = (finalityThreshold: number, minimumFee: number) => ({
    finalityThreshold,
    minimumFee,
    ...(fees.forwardFee
      ? {
          forwardFee: {
            low: Number(fees.forwardFee.low),
            med: Number(fees.forwardFee.med),
            high: Number(fees.forwardFee.high),
          },
        }
      : {}),
  });
  return [
    ...(fees.fastBps === undefined ? [] : [entry(FAST_FINALITY, fees.fastBps)]),
    entry(STANDARD_FINALITY, fees.standardBps),
  ];
};

/** GET /v2/publicKeys: the attesters' uncompressed public keys. */
export const publicKeysJson = (attesterKeys: readonly string[]) => ({
  publicKeys: attesterKeys.map((key) => ({
    publicKey: new SigningKey(key).publicKey,
    cctpVersion: CCTP_VERSION,
  })),
});
