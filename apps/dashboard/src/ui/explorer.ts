/**
 * Block explorers of the public networks, by chain id. The devnet has none: its hashes are shown
 * with a copy button instead of a link.
 */
const EXPLORERS: Record<number, string> = {
  1: 'https://etherscan.io',
  8453: 'https://basescan.org',
  137: 'https://polygonscan.com',
  42161: 'https://arbiscan.io',
  43114: 'https://snowtrace.io',
  10: 'https://optimistic.etherscan.io',
  11155111: 'https://sepolia.etherscan.io',
  84532: 'https://sepolia.basescan.org',
  80002: 'https://amoy.polygonscan.com',
  421614: 'https://sepolia.arbiscan.io',
  43113: 'https://testnet.snowtrace.io',
  11155420: 'https://sepolia-optimism.etherscan.io',
};

export interface PublicChain {
  name: string;
  chainId: number;
}

export const explorerTxUrl = (chainId: number | undefined, hash: string): string | undefined => {
  const base = chainId === undefined ? undefined : EXPLORERS[chainId];
  return base ? `${base}/tx/${hash}` : undefined;
};

export const explorerAddressUrl = (chainId: number | undefined, address: string): string | undefined => {
  const base = chainId === undefined ? undefined : EXPLORERS[chainId];
  return base ? `${base}/address/${address}` : undefined;
};
