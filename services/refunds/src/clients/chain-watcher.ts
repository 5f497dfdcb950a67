import {
  WalletBalanceResponse,
  normalizeDecimal,
  type Currency,
  type WalletBalance,
} from '@stablepay/contracts';
import { InternalCallError, callInternal } from '@stablepay/platform';
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
    let answer: WalletBalanceResponse | undefined;
    try {
      answer = await callInternal({
        service: 'chain-watcher',
        baseUrl: this.opts.baseUrl,
        path: `internal/wallets/${encodeURIComponent(merchantId)}/balances`,
        secret: this.opts.internalTokenSecret,
        timeoutMs: this.opts.timeoutMs,
        what: 'balance',
        schema: WalletBalanceResponse,
        absentOn: [404],
      });
    } catch (err) {
      if (err instanceof InternalCallError) throw new BalanceUnavailableError(err.message);
      throw err;
    }
    if (!answer) return null;
    const amounts = new Map<string, string>();
    try {
      for (const b of answer.data.balances) amounts.set(b.token, normalizeDecimal(b.amount));
    } catch {
      throw new BalanceUnavailableError('chain-watcher answered with an amount of more than 6 decimals');
    }
    return {
      blockchain: answer.data.blockchain,
      amountOf: (token) => amounts.get(token) ?? '0.000000',
    };
  }
}

/** The balance source a deployed service uses: the chain-watcher named in the configuration. */
export const chainWatcherBalances = (config: RefundsConfig): BalanceSource =>
  new ChainWatcherClient({
    baseUrl: config.CHAIN_WATCHER_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
  });
