/**
 * Block explorers of the public networks, for the transaction links of the progress list. A chain
 * without one (a private or local network) shows the hash as text.
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

export const txUrl = (chainId: number | undefined, hash: string): string | undefined =>
  chainId !== undefined && EXPLORERS[chainId] ? `${EXPLORERS[chainId]}/tx/${hash}` : undefined;

export const shortHash = (hash: string): string => `${hash.slice(0, 10)}…${hash.slice(-8)}`;

/**
 * Only http(s) URLs are followed: return and cancel URLs come from the merchant through the API,
 * and a `javascript:` one must never run here.
 */
export const safeUrl = (url: string | null | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
};
