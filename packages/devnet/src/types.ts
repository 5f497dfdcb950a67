import type { BlockchainName, ChainRegistry, Currency } from '@stablepay/contracts';
import type { DevnetAccount } from './accounts.js';

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
  /** The devnet registry preset with the live RPC URLs and token addresses. */
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
