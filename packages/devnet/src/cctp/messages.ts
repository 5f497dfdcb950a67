import {
  concat,
  dataLength,
  dataSlice,
  getAddress,
  getBytes,
  hexlify,
  keccak256,
  toBeHex,
  zeroPadValue,
} from 'ethers';

/*
 * CCTP v2 messages exactly as MessageTransmitterV2 and TokenMessengerV2 pack them: big-endian, no ABI
 * padding, addresses as bytes32 with twelve leading zero bytes. Byte offsets in the interfaces below.
 */

/** A MessageV2: the header, then the body from byte 148. bytes32 fields are 0x-prefixed lower-case hex. */
export interface MessageV2 {
  /** @0, 4 bytes */
  version: number;
  /** @4, 4 bytes */
  sourceDomain: number;
  /** @8, 4 bytes */
  destinationDomain: number;
  /** @12, bytes32: empty as emitted, assigned by the attester. */
  nonce: string;
  /** @44, bytes32: the sending contract (the source TokenMessengerV2 for a burn). */
  sender: string;
  /** @76, bytes32: the receiving contract (the destination TokenMessengerV2 for a burn). */
  recipient: string;
  /** @108, bytes32: who may call receiveMessage; zero = anyone. */
  destinationCaller: string;
  /** @140, 4 bytes */
  minFinalityThreshold: number;
  /** @144, 4 bytes: 0 as emitted, set by the attester (1000 fast, 2000 standard). */
  finalityThresholdExecuted: number;
  /** @148 to the end. */
  messageBody: string;
}

/** A BurnMessageV2, the body of a token messenger's message. */
export interface BurnMessageV2 {
  /** @0, 4 bytes */
  version: number;
  /** @4, bytes32: the token burned on the source chain. */
  burnToken: string;
  /** @36, bytes32 */
  mintRecipient: string;
  /** @68, uint256 */
  amount: bigint;
  /** @100, bytes32: who called depositForBurn. */
  messageSender: string;
  /** @132, uint256 */
  maxFee: bigint;
  /** @164, uint256: 0 as emitted, set by the attester. */
  feeExecuted: bigint;
  /** @196, uint256: 0 as emitted; the attester sets a block for fast transfers, 0 = never expires. */
  expirationBlock: bigint;
  /** @228 to the end. */
  hookData: string;
}

export const MESSAGE_BODY_OFFSET = 148;
export const HOOK_DATA_OFFSET = 228;
const UINT32_MAX = 0xffff_ffff;
const UINT256_MAX = (1n << 256n) - 1n;
export const EMPTY_BYTES32 = `0x${'00'.repeat(32)}`;

export class CctpMessageError extends Error {
  override name = 'CctpMessageError';
}

const uint32 = (value: number, field: string): string => {
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX)
    throw new CctpMessageError(`${field} must be a uint32, not ${value}`);
  return toBeHex(value, 4);
};

const uint256 = (value: bigint, field: string): string => {
  if (value < 0n || value > UINT256_MAX)
    throw new CctpMessageError(`${field} must be a uint256, not ${value}`);
  return toBeHex(value, 32);
};

const bytes32 = (value: string, field: string): string => {
  if (dataLength(value) !== 32) throw new CctpMessageError(`${field} must be 32 bytes: ${value}`);
  return hexlify(value);
};

const readUint32 = (data: string, offset: number): number =>
  Number(BigInt(dataSlice(data, offset, offset + 4)));
const readUint256 = (data: string, offset: number): bigint => BigInt(dataSlice(data, offset, offset + 32));
const readBytes32 = (data: string, offset: number): string => dataSlice(data, offset, offset + 32);

/** An EVM address as the bytes32 word CCTP carries it. */
export const addressToBytes32 = (address: string): string =>
  zeroPadValue(getAddress(address), 32).toLowerCase();

/** The address in a bytes32 word (checksummed); refuses a word whose twelve high bytes are not zero. */
export const bytes32ToAddress = (word: string): string => {
  if (BigInt(bytes32(word, 'address word')) >> 160n !== 0n)
    throw new CctpMessageError(`${word} is not an address as bytes32`);
  return getAddress(dataSlice(word, 12));
};

export const encodeMessageV2 = (message: MessageV2): string =>
  concat([
    uint32(message.version, 'version'),
    uint32(message.sourceDomain, 'sourceDomain'),
    uint32(message.destinationDomain, 'destinationDomain'),
    bytes32(message.nonce, 'nonce'),
    bytes32(message.sender, 'sender'),
    bytes32(message.recipient, 'recipient'),
    bytes32(message.destinationCaller, 'destinationCaller'),
    uint32(message.minFinalityThreshold, 'minFinalityThreshold'),
    uint32(message.finalityThresholdExecuted, 'finalityThresholdExecuted'),
    getBytes(message.messageBody),
  ]);

export const decodeMessageV2 = (data: string): MessageV2 => {
  if (dataLength(data) < MESSAGE_BODY_OFFSET)
    throw new CctpMessageError(
      `A MessageV2 has at least ${MESSAGE_BODY_OFFSET} bytes, not ${dataLength(data)}`,
    );
  return {
    version: readUint32(data, 0),
    sourceDomain: readUint32(data, 4),
    destinationDomain: readUint32(data, 8),
    nonce: readBytes32(data, 12),
    sender: readBytes32(data, 44),
    recipient: readBytes32(data, 76),
    destinationCaller: readBytes32(data, 108),
    minFinalityThreshold: readUint32(data, 140),
    finalityThresholdExecuted: readUint32(data, 144),
    messageBody: dataSlice(data, MESSAGE_BODY_OFFSET),
  };
};

export const encodeBurnMessageV2 = (body: BurnMessageV2): string =>
  concat([
    uint32(body.version, 'version'),
    bytes32(body.burnToken, 'burnToken'),
    bytes32(body.mintRecipient, 'mintRecipient'),
    uint256(body.amount, 'amount'),
    bytes32(body.messageSender, 'messageSender'),
    uint256(body.maxFee, 'maxFee'),
    uint256(body.feeExecuted, 'feeExecuted'),
    uint256(body.expirationBlock, 'expirationBlock'),
    getBytes(body.hookData),
  ]);

export const decodeBurnMessageV2 = (data: string): BurnMessageV2 => {
  if (dataLength(data) < HOOK_DATA_OFFSET)
    throw new CctpMessageError(
      `A BurnMessageV2 has at least ${HOOK_DATA_OFFSET} bytes, not ${dataLength(data)}`,
    );
  return {
    version: readUint32(data, 0),
    burnToken: readBytes32(data, 4),
    mintRecipient: readBytes32(data, 36),
    amount: readUint256(data, 68),
    messageSender: readBytes32(data, 100),
    maxFee: readUint256(data, 132),
    feeExecuted: readUint256(data, 164),
    expirationBlock: readUint256(data, 196),
    hookData: dataSlice(data, HOOK_DATA_OFFSET),
  };
};

/** What the attester fills in before signing; everything else stays as the source chain emitted it. */
export interface AttestedFields {
  nonce: string;
  finalityThresholdExecuted: number;
  /** Only for burn messages. */
  burn?: { feeExecuted: bigint; expirationBlock: bigint };
}

/** The message an attester signs: the emitted bytes with nonce, finality and (for a burn) fee and expiry set. */
export const fillAttestedFields = (emitted: string, fields: AttestedFields): string => {
  const header = decodeMessageV2(emitted);
  const messageBody = fields.burn
    ? encodeBurnMessageV2({ ...decodeBurnMessageV2(header.messageBody), ...fields.burn })
    : header.messageBody;
  return encodeMessageV2({
    ...header,
    nonce: fields.nonce,
    finalityThresholdExecuted: fields.finalityThresholdExecuted,
    messageBody,
  });
};

/** keccak256 of the message: what attesters sign, and the key of Circle's v1 attestation lookup. */
export const messageHash = (message: string): string => keccak256(message);
