import type { Currency, WalletBalance } from '@stablepay/contracts';
import { WalletBalancesClient } from '@stablepay/platform';
import type { RefundsConfig } from '../config.js';

export { BalanceUnavailableError } from '@stablepay/platform';

export interface WalletBalances {
  blockchain: WalletBalance['blockchain'];
  /** 6-decimal strings; a token the wallet does not list holds nothing */
  amountOf(token: Currency): string;
}

export interface BalanceSource {
  /** The merchant wallet's balances now; null when the merchant has no wallet. */
  walletBalances(merchantId: string): Promise<WalletBalances | null>;
}

/** The dispatcher's view of a wallet: how much of one token it holds. */
const byToken = (wallets: WalletBalancesClient): BalanceSource => ({
  async walletBalances(merchantId) {
    const answer = await wallets.walletBalances(merchantId);
    if (!answer) return null;
    const { balances } = answer;
    return { blockchain: answer.blockchain, amountOf: (token) => balances.get(token) ?? '0.000000' };
  },
});

/**
 * A merchant wallet's balances from the chain-watcher's internal API, read with a short-lived
 * service token.
 */
export class ChainWatcherClient implements BalanceSource {
  private readonly source: BalanceSource;

  constructor(opts: { baseUrl: string; internalTokenSecret: string; timeoutMs: number }) {
    this.source = byToken(new WalletBalancesClient(opts));
  }

  walletBalances(merchantId: string): Promise<WalletBalances | null> {
    return this.source.walletBalances(merchantId);
  }
}

/** The balance source a deployed service uses: the chain-watcher named in the configuration. */
export const chainWatcherBalances = (config: RefundsConfig): BalanceSource =>
  byToken(WalletBalancesClient.fromConfig(config));
