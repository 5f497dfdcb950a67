/*
 * Block explorers of the public networks, by chain id, for the links the checkout page and the
 * dashboard put on transactions and addresses. A chain without one (a private network, the devnet)
 * gets no link: the page shows the hash as text. Imports nothing, so a browser bundle that imports
 * this file directly carries only this table.
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

const explorerUrl = (chainId: number | undefined, kind: 'tx' | 'address', id: string): string | undefined => {
  const base = chainId === undefined ? undefined : EXPLORERS[chainId];
  return base ? `${base}/${kind}/${id}` : undefined;
};

export const explorerTxUrl = (chainId: number | undefined, hash: string): string | undefined =>
  explorerUrl(chainId, 'tx', hash);

export const explorerAddressUrl = (chainId: number | undefined, address: string): string | undefined =>
  explorerUrl(chainId, 'address', address);
