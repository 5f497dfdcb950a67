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
 * One codec for both ends: the devnet's attester builds and signs messages with it, the chain-watcher
 * reads with it what the chains and the attestation API return. Imported by its own path, so that
 * services which never see a CCTP message do not load ethers.
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

/** How each fixed-size field is written, read, and how many bytes it takes. */
const FIELD = {
  uint32: {
    size: 4,
    write: (value: unknown, field: string) => uint32(value as number, field),
    read: (data: string, at: number): unknown => Number(BigInt(dataSlice(data, at, at + 4))),
  },
  uint256: {
    size: 32,
    write: (value: unknown, field: string) => uint256(value as bigint, field),
    read: (data: string, at: number): unknown => BigInt(dataSlice(data, at, at + 32)),
  },
  bytes32: {
    size: 32,
    write: (value: unknown, field: string) => bytes32(value as string, field),
    read: (data: string, at: number): unknown => dataSlice(data, at, at + 32),
  },
} as const;

/** A packed layout: fixed-size fields in order, then a tail of any length to the end. */
interface Layout<T> {
  name: string;
  fields: ReadonlyArray<readonly [keyof T & string, keyof typeof FIELD]>;
  tail: keyof T & string;
}

const tailOffset = <T>(layout: Layout<T>): number =>
  layout.fields.reduce((offset, [, type]) => offset + FIELD[type].size, 0);

const encodePacked = <T>(layout: Layout<T>, value: T): string =>
  concat([
    ...layout.fields.map(([name, type]) => FIELD[type].write(value[name], name)),
    getBytes(value[layout.tail] as string),
  ]);

const decodePacked = <T>(layout: Layout<T>, data: string): T => {
  const end = tailOffset(layout);
  if (dataLength(data) < end)
    throw new CctpMessageError(`A ${layout.name} has at least ${end} bytes, not ${dataLength(data)}`);
  const decoded: Record<string, unknown> = {};
  let offset = 0;
  for (const [name, type] of layout.fields) {
    decoded[name] = FIELD[type].read(data, offset);
    offset += FIELD[type].size;
  }
  decoded[layout.tail] = dataSlice(data, end);
  return decoded as T;
};

const MESSAGE_V2: Layout<MessageV2> = {
  name: 'MessageV2',
  fields: [
    ['version', 'uint32'],
    ['sourceDomain', 'uint32'],
    ['destinationDomain', 'uint32'],
    ['nonce', 'bytes32'],
    ['sender', 'bytes32'],
    ['recipient', 'bytes32'],
    ['destinationCaller', 'bytes32'],
    ['minFinalityThreshold', 'uint32'],
    ['finalityThresholdExecuted', 'uint32'],
  ],
  tail: 'messageBody',
};

const BURN_MESSAGE_V2: Layout<BurnMessageV2> = {
  name: 'BurnMessageV2',
  fields: [
    ['version', 'uint32'],
    ['burnToken', 'bytes32'],
    ['mintRecipient', 'bytes32'],
    ['amount', 'uint256'],
    ['messageSender', 'bytes32'],
    ['maxFee', 'uint256'],
    ['feeExecuted', 'uint256'],
    ['expirationBlock', 'uint256'],
  ],
  tail: 'hookData',
};

/** Where the body of a MessageV2 begins: byte 148. */
export const MESSAGE_BODY_OFFSET = tailOffset(MESSAGE_V2);
/** Where the hook data of a BurnMessageV2 begins: byte 228. */
export const HOOK_DATA_OFFSET = tailOffset(BURN_MESSAGE_V2);

/** An EVM address as the bytes32 word CCTP carries it. */
export const addressToBytes32 = (address: string): string =>
  zeroPadValue(getAddress(address), 32).toLowerCase();

/** The address in a bytes32 word (checksummed); refuses a word whose twelve high bytes are not zero. */
export const bytes32ToAddress = (word: string): string => {
  if (BigInt(bytes32(word, 'address word')) >> 160n !== 0n)
    throw new CctpMessageError(`${word} is not an address as bytes32`);
  return getAddress(dataSlice(word, 12));
};

export const encodeMessageV2 = (message: MessageV2): string => encodePacked(MESSAGE_V2, message);

export const decodeMessageV2 = (data: string): MessageV2 => decodePacked(MESSAGE_V2, data);

export const encodeBurnMessageV2 = (body: BurnMessageV2): string => encodePacked(BURN_MESSAGE_V2, body);

export const decodeBurnMessageV2 = (data: string): BurnMessageV2 => decodePacked(BURN_MESSAGE_V2, data);

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
