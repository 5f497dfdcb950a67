import type { BlockchainName } from '@stablepay/contracts';

/**
 * Chain ids the payments service accepts and the blockchain name each one is reported as. The full
 * chain registry (RPC URLs, token and CCTP addresses) belongs to the chain-watcher; payments only
 * needs to name the chain a payment came from.
 */
export const MAINNET_CHAINS: Readonly<Record<number, BlockchainName>> = {
  1: 'ETH',
  8453: 'BASE',
  137: 'MATIC',
  42161: 'ARB',
  43114: 'AVAX',
  10: 'OP',
};

export interface ChainDirectory {
  nameOf(chainId: number): BlockchainName | undefined;
}

/** Mainnet ids plus configured extras (devnet ids such as 31337); extras win on a clash. */
export const createChainDirectory = (extra: Record<string, BlockchainName> = {}): ChainDirectory => {
  const names = new Map<number, BlockchainName>(
    Object.entries(MAINNET_CHAINS).map(([id, name]) => [Number(id), name]),
  );
  for (const [id, name] of Object.entries(extra)) names.set(Number(id), name);
  return { nameOf: (chainId) => names.get(chainId) };
};
