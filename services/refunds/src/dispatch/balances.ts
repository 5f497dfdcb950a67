import type { Currency, WalletBalance } from '@stablepay/contracts';
import { InternalCallError, fetchWalletBalances } from '@stablepay/platform';
import type { RefundsConfig } from '../config.js';

/** The balance could not be read (chain-watcher down, slow, or answering nonsense). */
export class BalanceUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BalanceUnavailableError';
  }
}

export interface WalletBalances {
  blockchain: WalletBalance['blockchain'];
  /** 6-decimal strings; a token the wallet does not list holds nothing */
  amountOf(token: Currency): string;
}

export interface BalanceSource {
  /** The merchant wallet's balances now; null when the merchant has no wallet. */
  walletBalances(merchantId: string): Promise<WalletBalances | null>;
}

/**
 * Reads a merchant wallet's balances from the chain-watcher's internal API
 * (`GET /internal/wallets/:merchantId/balances`) with a short-lived service token.
 */
export class ChainWatcherClient implements BalanceSource {
  constructor(private readonly opts: { baseUrl: string; internalTokenSecret: string; timeoutMs: number }) {}

  async walletBalances(merchantId: string): Promise<WalletBalances | null> {
    let answer;
    try {
      answer = await fetchWalletBalances({
        baseUrl: this.opts.baseUrl,
        secret: this.opts.internalTokenSecret,
        timeoutMs: this.opts.timeoutMs,
        merchantId,
      });
    } catch (err) {
      if (err instanceof InternalCallError) throw new BalanceUnavailableError(err.message);
      throw err;
    }
    if (!answer) return null;
    const { balances } = answer;
    return { blockchain: answer.blockchain, amountOf: (token) => balances.get(token) ?? '0.000000' };
  }
}

/** The balance source a deployed service uses: the chain-watcher named in the configuration. */
export const chainWatcherBalances = (config: RefundsConfig): BalanceSource =>
  new ChainWatcherClient({
    baseUrl: config.CHAIN_WATCHER_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
  });
