import { InternalCallError, fetchWalletBalances, type WalletBalancesAnswer } from '@stablepay/platform';

/** The balance could not be read (chain-watcher down, slow, or answering nonsense). */
export class BalanceUnavailableError extends Error {
  override readonly name = 'BalanceUnavailableError';
}

export type MerchantWallet = WalletBalancesAnswer;

export interface BalanceSource {
  /** The merchant wallet's balances now; null when the merchant has no wallet. */
  walletBalances(merchantId: string): Promise<MerchantWallet | null>;
}

/**
 * Reads a merchant wallet's on-chain balances from the chain-watcher's internal API
 * (`GET /internal/wallets/:merchantId/balances`) with a short-lived service token.
 */
export class ChainWatcherClient implements BalanceSource {
  constructor(private readonly opts: { baseUrl: string; internalTokenSecret: string; timeoutMs: number }) {}

  async walletBalances(merchantId: string): Promise<MerchantWallet | null> {
    try {
      return await fetchWalletBalances({
        baseUrl: this.opts.baseUrl,
        secret: this.opts.internalTokenSecret,
        timeoutMs: this.opts.timeoutMs,
        merchantId,
      });
    } catch (err) {
      if (err instanceof InternalCallError) throw new BalanceUnavailableError(err.message);
      throw err;
    }
  }
}

export const chainWatcherBalances = (config: {
  CHAIN_WATCHER_URL: string;
  INTERNAL_TOKEN_SECRET: string;
  CHAIN_WATCHER_TIMEOUT_MS: number;
}): BalanceSource =>
  new ChainWatcherClient({
    baseUrl: config.CHAIN_WATCHER_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
  });
