import { AbiCoder, Interface, getAddress } from 'ethers';
import {
  decodeBurnMessageV2,
  decodeMessageV2,
  messageHash,
  type BurnMessageV2,
  type MessageV2,
} from '@stablepay/platform/cctp/message-v2';
import type { ChainRpc } from './chain-rpc.js';
import type { RawLog } from './rpc-facts.js';

/*
 * CCTP v2 as Circle's V2.1 contracts emit it. The events are read from receipts and logs; the
 * message bytes are packed big-endian with addresses as bytes32 (12 leading zero bytes).
 */
export const cctpEvents = new Interface([
  'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
  'event MessageSent(bytes message)',
  'event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)',
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)',
]);

export const cctpCalls = new Interface([
  'function receiveMessage(bytes message, bytes attestation) returns (bool)',
  'function usedNonces(bytes32 nonce) view returns (uint256)',
]);

export const CCTP_TOPICS = {
  depositForBurn: cctpEvents.getEvent('DepositForBurn')!.topicHash,
  messageSent: cctpEvents.getEvent('MessageSent')!.topicHash,
  messageReceived: cctpEvents.getEvent('MessageReceived')!.topicHash,
  mintAndWithdraw: cctpEvents.getEvent('MintAndWithdraw')!.topicHash,
} as const;

/** A bytes32 word holding an address: the address, or undefined when the upper 12 bytes are not zero. */
export const addressFromWord = (word: string): string | undefined =>
  /^0x0{24}[0-9a-fA-F]{40}$/.test(word) ? getAddress(`0x${word.slice(-40)}`) : undefined;

export interface DepositForBurn {
  emitter: string;
  burnToken: string;
  amount: bigint;
  depositor: string;
  /** bytes32 as emitted; `mintRecipientAddress` is the address it holds, if any */
  mintRecipient: string;
  mintRecipientAddress?: string;
  destinationDomain: number;
  destinationCaller: string;
  maxFee: bigint;
  minFinalityThreshold: number;
  hookData: string;
  logIndex: number;
}

export interface MintAndWithdraw {
  emitter: string;
  mintRecipient: string;
  amount: bigint;
  mintToken: string;
  feeCollected: bigint;
  logIndex: number;
}

export interface MessageReceived {
  emitter: string;
  caller: string;
  sourceDomain: number;
  nonce: string;
  finalityThresholdExecuted: number;
  messageBody: string;
  logIndex: number;
}

const parse = (log: RawLog, topic: string) => {
  if (log.removed || log.topics[0]?.toLowerCase() !== topic) return undefined;
  try {
    return cctpEvents.parseLog({ topics: log.topics, data: log.data }) ?? undefined;
  } catch {
    return undefined;
  }
};

const indexOf = (log: RawLog): number => log.index ?? log.logIndex ?? 0;

export const decodeDepositForBurn = (log: RawLog): DepositForBurn | undefined => {
  const e = parse(log, CCTP_TOPICS.depositForBurn);
  if (!e) return undefined;
  const mintRecipient = String(e.args.mintRecipient);
  return {
    emitter: getAddress(log.address),
    burnToken: getAddress(String(e.args.burnToken)),
    amount: BigInt(e.args.amount),
    depositor: getAddress(String(e.args.depositor)),
    mintRecipient,
    mintRecipientAddress: addressFromWord(mintRecipient),
    destinationDomain: Number(e.args.destinationDomain),
    destinationCaller: String(e.args.destinationCaller),
    maxFee: BigInt(e.args.maxFee),
    minFinalityThreshold: Number(e.args.minFinalityThreshold),
    hookData: String(e.args.hookData),
    logIndex: indexOf(log),
  };
};

export const decodeMintAndWithdraw = (log: RawLog): MintAndWithdraw | undefined => {
  const e = parse(log, CCTP_TOPICS.mintAndWithdraw);
  if (!e) return undefined;
  return {
    emitter: getAddress(log.address),
    mintRecipient: getAddress(String(e.args.mintRecipient)),
    amount: BigInt(e.args.amount),
    mintToken: getAddress(String(e.args.mintToken)),
    feeCollected: BigInt(e.args.feeCollected),
    logIndex: indexOf(log),
  };
};

export interface MessageSent {
  emitter: string;
  message: string;
  logIndex: number;
}

export const decodeMessageSent = (log: RawLog): MessageSent | undefined => {
  const e = parse(log, CCTP_TOPICS.messageSent);
  if (!e) return undefined;
  return { emitter: getAddress(log.address), message: String(e.args.message), logIndex: indexOf(log) };
};

export const decodeMessageReceived = (log: RawLog): MessageReceived | undefined => {
  const e = parse(log, CCTP_TOPICS.messageReceived);
  if (!e) return undefined;
  return {
    emitter: getAddress(log.address),
    caller: getAddress(String(e.args.caller)),
    sourceDomain: Number(e.args.sourceDomain),
    nonce: String(e.args.nonce).toLowerCase(),
    finalityThresholdExecuted: Number(e.args.finalityThresholdExecuted),
    messageBody: String(e.args.messageBody),
    logIndex: indexOf(log),
  };
};

/** MessageV2 and its BurnMessageV2 body, as the attestation API returns them (nonce filled in). */
export interface CctpMessage extends Omit<MessageV2, 'messageBody'> {
  body: BurnMessageV2;
  /** keccak256 of the whole message: what the attesters sign and the v1 API is keyed by */
  hash: string;
}

/** Decodes a burn's message, header and body (a message too short for either is refused). */
export const decodeCctpMessage = (message: string): CctpMessage => {
  const { messageBody, ...header } = decodeMessageV2(message);
  return { ...header, body: decodeBurnMessageV2(messageBody), hash: messageHash(message) };
};

export const encodeReceiveMessage = (message: string, attestation: string): string =>
  cctpCalls.encodeFunctionData('receiveMessage', [message, attestation]);

export const encodeUsedNonces = (nonce: string): string =>
  cctpCalls.encodeFunctionData('usedNonces', [nonce]);

export const decodeUint = (data: string): bigint =>
  AbiCoder.defaultAbiCoder().decode(['uint256'], data)[0] as bigint;

/** Revert strings of Circle's V2.1 receive path that the relay acts on. */
export const CCTP_RECEIVE_REVERTS = {
  expired: 'Message expired and must be re-signed',
  nonceUsed: 'Nonce already used',
} as const;

/** Whether MessageTransmitterV2 has received the message of this nonce (usedNonces is 1). */
export const isNonceUsed = async (rpc: ChainRpc, transmitter: string, nonce: string): Promise<boolean> =>
  decodeUint(await rpc.ethCall(transmitter, encodeUsedNonces(nonce))) !== 0n;
