/** The parts of a log (ethers Log, or raw JSON-RPC) that a Transfer is read from. */
export interface RawLog {
  address: string;
  topics: readonly string[];
  data: string;
  index?: number;
  logIndex?: number;
  removed?: boolean;
}

/** What verification reads from a receipt. */
export interface ReceiptFacts {
  /** 1 success, 0 reverted */
  status: number;
  blockHash: string;
  blockNumber: number;
  logs: RawLog[];
  /** what the sender paid: gasUsed × effectiveGasPrice wei (absent where a node leaves them out) */
  gasUsed?: bigint;
  effectiveGasPrice?: bigint;
}

export interface BlockFacts {
  number: number;
  hash: string;
  /** seconds since the epoch */
  timestamp: number;
}

/** A node answered something that is not a JSON-RPC result of the expected shape: try another. */
export class MalformedRpcAnswer extends Error {
  override readonly name = 'MalformedRpcAnswer';
  readonly code = 'BAD_RPC_ANSWER';
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const QUANTITY = /^0x[0-9a-fA-F]+$/;

const quantity = (value: unknown, what: string): number => {
  if (typeof value !== 'string' || !QUANTITY.test(value)) throw new MalformedRpcAnswer(`bad ${what}`);
  return Number(BigInt(value));
};

const hash = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || !HASH.test(value)) throw new MalformedRpcAnswer(`bad ${what}`);
  return value.toLowerCase();
};

const record = (value: unknown): Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) throw new MalformedRpcAnswer('not an object');
  return value as Record<string, unknown>;
};

const optionalBig = (r: Record<string, unknown>, key: 'gasUsed' | 'effectiveGasPrice') =>
  typeof r[key] === 'string' && QUANTITY.test(r[key]) ? { [key]: BigInt(r[key]) } : {};

/**
 * null: no receipt, or one for a transaction not yet in a block (some nodes answer for pending
 * transactions with a null block hash).
 */
export const parseReceipt = (answer: unknown): ReceiptFacts | null => {
  if (answer === null || answer === undefined) return null;
  const r = record(answer);
  if (r.blockHash === null || r.blockNumber === null) return null;
  if (!Array.isArray(r.logs)) throw new MalformedRpcAnswer('bad logs');
  return {
    status: quantity(r.status, 'status'),
    blockHash: hash(r.blockHash, 'blockHash'),
    blockNumber: quantity(r.blockNumber, 'blockNumber'),
    logs: r.logs.map((entry): RawLog => {
      const log = record(entry);
      if (typeof log.address !== 'string' || !Array.isArray(log.topics) || typeof log.data !== 'string') {
        throw new MalformedRpcAnswer('bad log');
      }
      return {
        address: log.address,
        topics: log.topics.map(String),
        data: log.data,
        index: log.logIndex === undefined || log.logIndex === null ? 0 : quantity(log.logIndex, 'logIndex'),
        removed: log.removed === true,
      };
    }),
    ...optionalBig(r, 'gasUsed'),
    ...optionalBig(r, 'effectiveGasPrice'),
  };
};

export const parseBlock = (answer: unknown): BlockFacts | null => {
  if (answer === null || answer === undefined) return null;
  const b = record(answer);
  if (b.hash === null) return null;
  return {
    number: quantity(b.number, 'number'),
    hash: hash(b.hash, 'hash'),
    timestamp: quantity(b.timestamp, 'timestamp'),
  };
};
