import type { BlockchainName, ChainConfig } from '@stablepay/contracts';

/** The coin a chain's gas is paid in. */
export interface NativeToken {
  symbol: string;
  decimals: number;
}

/** Gas coins of the CCTP chains; a devnet chain stands for the chain of its name. */
export const NATIVE_TOKENS: Record<BlockchainName, NativeToken> = {
  ETH: { symbol: 'ETH', decimals: 18 },
  BASE: { symbol: 'ETH', decimals: 18 },
  ARB: { symbol: 'ETH', decimals: 18 },
  OP: { symbol: 'ETH', decimals: 18 },
  UNI: { symbol: 'ETH', decimals: 18 },
  LINEA: { symbol: 'ETH', decimals: 18 },
  WORLD: { symbol: 'ETH', decimals: 18 },
  MATIC: { symbol: 'POL', decimals: 18 },
  AVAX: { symbol: 'AVAX', decimals: 18 },
  SONIC: { symbol: 'S', decimals: 18 },
  SEI: { symbol: 'SEI', decimals: 18 },
  CODEX: { symbol: 'ETH', decimals: 18 },
  INK: { symbol: 'ETH', decimals: 18 },
  MONAD: { symbol: 'MON', decimals: 18 },
  XDC: { symbol: 'XDC', decimals: 18 },
  HYPEREVM: { symbol: 'HYPE', decimals: 18 },
  PLUME: { symbol: 'PLUME', decimals: 18 },
  // Arc pays gas in USDC, natively with 18 decimals (its ERC-20 face has 6).
  ARC: { symbol: 'USDC', decimals: 18 },
};

export const NATIVE_SYMBOLS = [...new Set(Object.values(NATIVE_TOKENS).map((t) => t.symbol))];

/**
 * Prices used when NATIVE_TOKEN_USD_PRICES does not name a coin. They are round figures for the
 * devnet and first runs, not market data: a deployment quoting real fees configures its own prices
 * or plugs a feed in through NativePriceSource.
 */
export const DEFAULT_NATIVE_USD_PRICES: Record<string, string> = {
  ETH: '3000',
  POL: '0.25',
  AVAX: '25',
  S: '0.5',
  SEI: '0.3',
  MON: '0.05',
  XDC: '0.05',
  HYPE: '30',
  PLUME: '0.1',
  USDC: '1',
};

export interface NativePrice extends NativeToken {
  /** USD per whole coin, a plain decimal string */
  usdPrice: string;
  /** which source answered, reported with the fee inputs */
  source: string;
}

/** Where the USD price of a chain's gas coin comes from: fixed figures, or a market feed. */
export interface NativePriceSource {
  nativePrice(chain: ChainConfig): Promise<NativePrice>;
}

/** Configured prices by coin symbol, the defaults filling the gaps. */
export const fixedNativePrices = (configured: Partial<Record<string, string>> = {}): NativePriceSource => {
  const prices: Partial<Record<string, string>> = { ...DEFAULT_NATIVE_USD_PRICES, ...configured };
  return {
    nativePrice: async (chain) => {
      const token = NATIVE_TOKENS[chain.name];
      return { ...token, usdPrice: prices[token.symbol]!, source: 'fixed' };
    },
  };
};
