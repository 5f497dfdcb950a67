import { getAddress, isHexString } from 'ethers';
import { toMilliBps, type ForwardFee } from './fees.js';

/** One chain the attestation service watches (and, with a relayer key, forwards to). */
export interface AttestationChain {
  name: string;
  chainId: number;
  cctpDomain: number;
  rpcUrl: string;
  messageTransmitter: string;
  tokenMessenger: string;
  /** First block to scan at start (default 0): a restarted service finds every earlier burn again. */
  startBlock?: number;
}

export interface AttestationLogger {
  info(message: string, meta?: Record<string, unknown>): unknown;
  warn?(message: string, meta?: Record<string, unknown>): unknown;
}

export interface AttestationServiceOptions {
  chains: AttestationChain[];
  /** Private keys of the enabled attesters. */
  attesterKeys: string[];
  /** How many attesters sign (the transmitter's signatureThreshold); default all of them. */
  signatureThreshold?: number;
  /** Blocks a burn needs, its own included, before it is attested: fast (default 1) and standard (default 3). */
  confirmations?: { fast?: number; standard?: number };
  fees?: {
    /** Fast-transfer rate in bps by source domain (may be fractional); default `defaultFastBps`. */
    fastBps?: Record<number, number>;
    /** Fast rate of a domain absent from `fastBps` (default 1); null: no fast transfer from there. */
    defaultFastBps?: number | null;
    /** Standard-transfer rate in bps (default 0, as Circle). */
    standardBps?: number;
    /** Forwarding fee estimates in USDC minor units (default 0.20 USDC flat, as Circle's service fee). */
    forwardFee?: ForwardFee;
    /** The estimate a forwarded transfer is charged (default med). */
    forwardFeeTier?: keyof ForwardFee;
  };
  /** Blocks of the destination chain a fast attestation stays valid for (default 7200). */
  fastExpirationBlocks?: number;
  /** Forwarding relayer key per chain name; a chain without one cannot be forwarded to. */
  relayerKeys?: Record<string, string>;
  /** Blocks a forwarded mint needs, its own included, before forwardState is COMPLETE (default 1). */
  forwardConfirmations?: number;
  /** 0 picks a free port (default 0); 8790 is the stack's. */
  port?: number;
  host?: string;
  pollIntervalMs?: number;
  /** Largest block range of one eth_getLogs call (default 1000). */
  logRangeBlocks?: number;
  /** Circle's limit: over `requestsPerSecond`, every request is refused with 429 for `blockMs`. */
  rateLimit?: { requestsPerSecond: number; blockMs: number } | false;
  /**
   * Mine a block on a chain whose burns or forwarded mints wait for confirmations. For devnet chains
   * that mine only on transactions, where a depth would otherwise never be reached.
   */
  mineWhileWaiting?: boolean;
  logger?: AttestationLogger;
}

export const CIRCLE_RATE_LIMIT = { requestsPerSecond: 35, blockMs: 5 * 60_000 } as const;

export interface ResolvedOptions {
  chains: Array<Required<AttestationChain>>;
  attesterKeys: string[];
  signatureThreshold: number;
  confirmations: { fast: number; standard: number };
  fastMilliBps: (sourceDomain: number) => bigint | undefined;
  fastBps: (sourceDomain: number) => number | undefined;
  standardBps: number;
  standardMilliBps: bigint;
  forwardFee: ForwardFee;
  forwardFeeTier: keyof ForwardFee;
  fastExpirationBlocks: number;
  relayerKeys: Record<string, string>;
  forwardConfirmations: number;
  port: number;
  host: string;
  pollIntervalMs: number;
  logRangeBlocks: number;
  rateLimit: { requestsPerSecond: number; blockMs: number } | false;
  mineWhileWaiting: boolean;
  logger: AttestationLogger | undefined;
}

const positiveInteger = (value: number, name: string): number => {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
};

const privateKey = (key: string, name: string): string => {
  if (!isHexString(key, 32)) throw new TypeError(`${name} must be a 32-byte hex private key`);
  return key;
};

const DEFAULT_FORWARD_FEE: ForwardFee = { low: 200_000n, med: 200_000n, high: 200_000n };

type ResolvedFees = Pick<
  ResolvedOptions,
  'fastBps' | 'fastMilliBps' | 'standardBps' | 'standardMilliBps' | 'forwardFee' | 'forwardFeeTier'
>;

/** Chain names and CCTP domains are unique: both key the messages the service keeps. */
const resolveChains = (chains: AttestationChain[]): ResolvedOptions['chains'] => {
  if (chains.length === 0) throw new RangeError('The attestation service needs at least one chain');
  const domains = new Set<number>();
  const names = new Set<string>();
  return chains.map((chain) => {
    if (domains.has(chain.cctpDomain))
      throw new RangeError(`Two chains have CCTP domain ${chain.cctpDomain}`);
    if (names.has(chain.name)) throw new RangeError(`Two chains are named ${chain.name}`);
    domains.add(chain.cctpDomain);
    names.add(chain.name);
    return {
      ...chain,
      messageTransmitter: getAddress(chain.messageTransmitter),
      tokenMessenger: getAddress(chain.tokenMessenger),
      startBlock: chain.startBlock ?? 0,
    };
  });
};

/** The threshold the transmitter checks: at least one signature, never more than there are keys. */
const resolveSignatureThreshold = (options: AttestationServiceOptions): number => {
  if (options.attesterKeys.length === 0) throw new RangeError('At least one attester key is needed');
  options.attesterKeys.forEach((key, index) => privateKey(key, `attesterKeys[${index}]`));
  const signatureThreshold = options.signatureThreshold ?? options.attesterKeys.length;
  positiveInteger(signatureThreshold, 'signatureThreshold');
  if (signatureThreshold > options.attesterKeys.length) {
    throw new RangeError(
      `signatureThreshold ${signatureThreshold} exceeds the ${options.attesterKeys.length} keys`,
    );
  }
  return signatureThreshold;
};

const resolveFees = (fees: NonNullable<AttestationServiceOptions['fees']>): ResolvedFees => {
  const fastBpsByDomain = new Map(
    Object.entries(fees.fastBps ?? {}).map(([domain, bps]) => [Number(domain), bps]),
  );
  const defaultFastBps = fees.defaultFastBps === undefined ? 1 : fees.defaultFastBps;
  const fastBps = (domain: number): number | undefined =>
    fastBpsByDomain.get(domain) ?? defaultFastBps ?? undefined;
  for (const bps of [...fastBpsByDomain.values(), defaultFastBps ?? 0]) toMilliBps(bps);
  const standardBps = fees.standardBps ?? 0;
  const forwardFee = fees.forwardFee ?? DEFAULT_FORWARD_FEE;
  for (const [tier, fee] of Object.entries(forwardFee)) {
    if (typeof fee !== 'bigint' || fee < 0n)
      throw new RangeError(`forwardFee.${tier} must be a non-negative bigint`);
  }
  return {
    fastBps,
    fastMilliBps: (domain) => {
      const bps = fastBps(domain);
      return bps === undefined ? undefined : toMilliBps(bps);
    },
    standardBps,
    standardMilliBps: toMilliBps(standardBps),
    forwardFee,
    forwardFeeTier: fees.forwardFeeTier ?? 'med',
  };
};

/** A relayer key only for a watched chain: a typo would otherwise silently disable forwarding there. */
const resolveRelayerKeys = (
  relayerKeys: Record<string, string> | undefined,
  chains: ResolvedOptions['chains'],
): Record<string, string> => {
  const names = new Set(chains.map((chain) => chain.name));
  for (const [name, key] of Object.entries(relayerKeys ?? {})) {
    if (!names.has(name)) throw new RangeError(`relayerKeys names ${name}, which is not a watched chain`);
    privateKey(key, `relayerKeys.${name}`);
  }
  return { ...(relayerKeys ?? {}) };
};

const resolveRateLimit = (
  rateLimit: AttestationServiceOptions['rateLimit'],
): ResolvedOptions['rateLimit'] => {
  const resolved = rateLimit ?? false;
  if (resolved) {
    positiveInteger(resolved.requestsPerSecond, 'rateLimit.requestsPerSecond');
    positiveInteger(resolved.blockMs, 'rateLimit.blockMs');
  }
  return resolved;
};

const resolvePort = (port = 0): number => {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RangeError('port must be 0 to 65535');
  return port;
};

/** Defaults filled in and every cross-field rule checked before anything starts. */
export const resolveOptions = (options: AttestationServiceOptions): ResolvedOptions => {
  const chains = resolveChains(options.chains);
  const signatureThreshold = resolveSignatureThreshold(options);
  const fees = resolveFees(options.fees ?? {});
  const relayerKeys = resolveRelayerKeys(options.relayerKeys, chains);
  const rateLimit = resolveRateLimit(options.rateLimit);
  const port = resolvePort(options.port);
  return {
    chains,
    attesterKeys: [...options.attesterKeys],
    signatureThreshold,
    confirmations: {
      fast: positiveInteger(options.confirmations?.fast ?? 1, 'confirmations.fast'),
      standard: positiveInteger(options.confirmations?.standard ?? 3, 'confirmations.standard'),
    },
    ...fees,
    fastExpirationBlocks: positiveInteger(options.fastExpirationBlocks ?? 7_200, 'fastExpirationBlocks'),
    relayerKeys,
    forwardConfirmations: positiveInteger(options.forwardConfirmations ?? 1, 'forwardConfirmations'),
    port,
    host: options.host ?? '127.0.0.1',
    pollIntervalMs: positiveInteger(options.pollIntervalMs ?? 250, 'pollIntervalMs'),
    logRangeBlocks: positiveInteger(options.logRangeBlocks ?? 1_000, 'logRangeBlocks'),
    rateLimit,
    mineWhileWaiting: options.mineWhileWaiting ?? false,
    logger: options.logger,
  };
};
