import { WalletBalancesClient, type WalletBalancesAnswer } from '@stablepay/platform';

export { BalanceUnavailableError } from '@stablepay/platform';

export type MerchantWallet = WalletBalancesAnswer;

export interface BalanceSource {
  /** The merchant wallet's balances now; null when the merchant has no wallet. */
  walletBalances(merchantId: string): Promise<MerchantWallet | null>;
}

/** The chain-watcher's internal balance route, as the platform reads it for every service. */
export { WalletBalancesClient as ChainWatcherClient };

/** The balance source a deployed service uses: the chain-watcher named in the configuration. */
export const chainWatcherBalances = (
  config: Parameters<typeof WalletBalancesClient.fromConfig>[0],
): BalanceSource => WalletBalancesClient.fromConfig(config);
