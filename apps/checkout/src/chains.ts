import type { PublicChain } from '@stablepay/contracts';

/** A chain as the customer reads it ("Base", "Polygon PoS"), as GET /chains names it; never its ticker. */
export const chainLabel = (chain: { name: string; displayName?: string }): string =>
  chain.displayName ?? chain.name;

/**
 * A transaction's page on the chain's explorer, when GET /chains names one (the devnet has none). The
 * gateway resolves the explorer from the presets, so the page does not carry their tables.
 */
export const explorerTx = (chain: PublicChain | undefined, hash: string): string | undefined =>
  chain?.explorerUrl ? `${chain.explorerUrl}/tx/${hash}` : undefined;
