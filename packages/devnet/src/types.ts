import type { BlockchainName, ChainRegistry, Currency } from '@stablepay/contracts';
import type { DevnetAccount } from './accounts.js';
import type { CctpContracts } from './cctp/deploy.js';
import type { AttestedFields, BurnMessageV2, MessageV2 } from '@stablepay/platform/cctp/message-v2';

/** A chain to run: a real network's name and CCTP domain, a chain id of its own. */
export interface DevnetChainSpec {
  name: BlockchainName;
  chainId: number;
  cctpDomain: number;
  /** Tokens to deploy. Default: USDC, plus EURC where the real network has EURC (ETH, BASE, AVAX). */
  tokens?: Currency[];
}

/** A running chain, exactly as `var/devnet.json` lists it under `chains`. */
export interface DevnetChain {
  name: BlockchainName;
  chainId: number;
  rpcUrl: string;
  cctpDomain: number;
  tokens: { USDC: string; EURC?: string };
  /** CCTP v2 contracts of this chain (the registry lists tokenMessenger and messageTransmitter). */
  cctp: CctpContracts;
}

/**
 * What a local attestation service, a forwarder and tests need to act as Circle's attester on the devnet:
 * the attester keys every chain's MessageTransmitterV2 trusts, and the message codec.
 */
export interface DevnetCctp {
  /** Message and burn-body versions the contracts were deployed with (1 and 1, as Circle's v2). */
  readonly messageVersion: number;
  readonly messageBodyVersion: number;
  /** Enabled on every chain; `signatureThreshold` of them sign each attestation. */
  readonly attesters: DevnetAccount[];
  readonly signatureThreshold: number;
  /** Receives the fee executed at every mint (TokenMessengerV2.feeRecipient). */
  readonly feeRecipient: string;
  readonly maxMessageBodySize: number;
  /** The most one burn of USDC may move, in base units. */
  readonly burnLimitPerMessage: bigint;
  /** The attestation the devnet's attesters give this message (sorted signatures, threshold of them). */
  attest(message: string): string;
  encodeMessage(message: MessageV2): string;
  decodeMessage(message: string): MessageV2;
  encodeBurnMessage(body: BurnMessageV2): string;
  decodeBurnMessage(body: string): BurnMessageV2;
  /** The emitted message with what the attester fills in: nonce, finality, and a burn's fee and expiry. */
  fillAttestedFields(emitted: string, fields: AttestedFields): string;
}

/** What the devnet logs through; a winston logger fits. */
export interface DevnetLogger {
  info(message: string, meta?: Record<string, unknown>): unknown;
}

export interface StartDevnetOptions {
  /** Where chain state lives across restarts (`<name>.json` per chain); in memory when absent. */
  stateDir?: string;
  /** RPC port of the first chain, the others following (default 8545); 0 picks free ports. */
  basePort?: number;
  chains?: DevnetChainSpec[];
  /** Funded customer accounts (default 5). */
  customers?: number;
  /** Seconds between blocks; by default every transaction is mined at once in its own block. */
  blockTime?: number;
  /** With a stateDir: also save chain state every so many seconds, not only at stop. */
  stateIntervalSeconds?: number;
  logger?: DevnetLogger;
}

/** Amounts in base units: wei for `native`, 6-decimal units for the tokens. */
export interface FundAmounts {
  native?: bigint;
  USDC?: bigint;
  EURC?: bigint;
}

export interface Devnet {
  readonly chains: DevnetChain[];
  readonly customers: DevnetAccount[];
  /** Owner and unlimited minter of every devnet token. */
  readonly deployer: DevnetAccount;
  /** A gas-paying account per chain (native coin only). */
  readonly relayers: Partial<Record<BlockchainName, DevnetAccount>>;
  /** CCTP attester keys and message helpers; each chain's contract addresses are in `chains[].cctp`. */
  readonly cctp: DevnetCctp;
  /** The devnet registry preset with the live RPC URLs, token and CCTP addresses. */
  registry(): ChainRegistry;
  chain(name: BlockchainName): DevnetChain;
  /** Adds native coin and mints tokens to an address. */
  fund(chainName: BlockchainName, address: string, amounts: FundAmounts): Promise<void>;
  /** Mines blocks at once (default 1) and returns the new head's number. */
  mine(chainName: BlockchainName, blocks?: number): Promise<number>;
  /** evm_snapshot; a revert consumes the snapshot and every later one. */
  snapshot(chainName: BlockchainName): Promise<string>;
  revert(chainName: BlockchainName, snapshotId: string): Promise<void>;
  /** Stops every chain (each writes its state file first when there is a stateDir). */
  stop(): Promise<void>;
}
