/*
 * Block explorer links and display names for the checkout page, the dashboard and e-mails. A chain
 * is known by its preset (presets-mainnet.ts, presets-testnet.ts) or by what the caller serves (a
 * registry's or GET /chains' chains, which may carry their own `displayName` and `explorerUrl`). A
 * chain without an explorer (a private network, the devnet) gets no link: the page shows the hash
 * as text. Imports only data files, so a browser bundle that imports this file directly carries the
 * preset tables and no schema code.
 */
import { MAINNET_CHAINS } from './presets-mainnet.js';
import { TESTNET_CHAINS } from './presets-testnet.js';

/** What a caller knows of the chains it serves: a registry's chains and GET /chains' both fit. */
export interface NamedChain {
  chainId: number;
  name: string;
  displayName?: string;
  explorerUrl?: string;
}

const PRESETS = new Map<number, NamedChain>(
  [...MAINNET_CHAINS, ...TESTNET_CHAINS].map((chain) => [chain.chainId, chain]),
);

const served = (chainId: number, chains: readonly NamedChain[]): NamedChain | undefined =>
  chains.find((chain) => chain.chainId === chainId);

/**
 * The name people read for a chain: the served chain's own display name, else its preset's, else
 * its BlockchainName (a devnet or custom chain); undefined for a chain nobody knows.
 */
export const chainDisplayName = (chainId: number, chains: readonly NamedChain[] = []): string | undefined => {
  const own = served(chainId, chains);
  return own?.displayName ?? PRESETS.get(chainId)?.displayName ?? own?.name;
};

// Mainnet last, so that its name wins for a chain on both networks; a testnet-only chain keeps its own.
const NAMES_BY_BLOCKCHAIN = new Map<string, string>(
  [...TESTNET_CHAINS, ...MAINNET_CHAINS].map((chain) => [chain.name, chain.displayName ?? chain.name]),
);

/**
 * A chain named by its BlockchainName (`BASE`, `MATIC`) as people call it ("Base", "Polygon PoS"),
 * for what records only the name (a withdrawal, an invoice): the mainnet preset's display name, the
 * chain the name stands for on every network (the testnet's for a chain only there); a name no
 * preset knows is shown as it is.
 */
export const blockchainDisplayName = (name: string): string => NAMES_BY_BLOCKCHAIN.get(name) ?? name;

/**
 * What GET /chains publishes as a chain's name: its display name or its preset's, else the display
 * name of its BlockchainName (a devnet or custom chain standing in for "BASE" reads "Base"), else
 * that name.
 */
export const publishedDisplayName = (chain: NamedChain): string =>
  chain.displayName ?? PRESETS.get(chain.chainId)?.displayName ?? blockchainDisplayName(chain.name);

/** The chain's block explorer: its own, else its preset's; undefined for a chain without one. */
export const chainExplorerUrl = (chain: NamedChain): string | undefined =>
  chain.explorerUrl ?? PRESETS.get(chain.chainId)?.explorerUrl;

const explorerUrl = (
  chainId: number | undefined,
  kind: 'tx' | 'address',
  id: string,
  chains: readonly NamedChain[],
): string | undefined => {
  if (chainId === undefined) return undefined;
  const base = served(chainId, chains)?.explorerUrl ?? PRESETS.get(chainId)?.explorerUrl;
  return base ? `${base}/${kind}/${id}` : undefined;
};

export const explorerTxUrl = (
  chainId: number | undefined,
  hash: string,
  chains: readonly NamedChain[] = [],
): string | undefined => explorerUrl(chainId, 'tx', hash, chains);

export const explorerAddressUrl = (
  chainId: number | undefined,
  address: string,
  chains: readonly NamedChain[] = [],
): string | undefined => explorerUrl(chainId, 'address', address, chains);
