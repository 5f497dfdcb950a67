import { normalizeDecimal, type BlockchainName, type Currency } from '@stablepay/contracts';
import { InternalRouteClient } from './route-client.js';

/** A merchant wallet's balances as the chain-watcher reports them, amounts as 6-decimal strings. */
export interface WalletBalancesAnswer {
  address: string;
  blockchain: BlockchainName;
  /** one entry per token the wallet's chain has; a token it lacks is absent */
  balances: ReadonlyMap<Currency, string>;
}

/**
 * The chain-watcher's `getInternalWalletBalances` route, read by every service that decides whether
 * a merchant's funds cover an outgoing transfer (refunds, withdrawals). Null when the merchant has no
 * wallet; the client's error (an InternalCallError by default) when the answer cannot be had or
 * trusted.
 */
const readWalletBalances = async (
  chainWatcher: InternalRouteClient,
  merchantId: string,
): Promise<WalletBalancesAnswer | null> => {
  const answer = await chainWatcher.get('getInternalWalletBalances', {
    params: { merchantId },
    what: 'balance',
    absentOn: [404],
  });
  if (!answer) return null;
  const balances = new Map<Currency, string>();
  try {
    for (const b of answer.data.balances) balances.set(b.token, normalizeDecimal(b.amount));
  } catch {
    throw chainWatcher.unavailable('chain-watcher answered with an amount of more than 6 decimals');
  }
  return { address: answer.data.address, blockchain: answer.data.blockchain, balances };
};

/** The balance could not be read (chain-watcher down, slow, or answering nonsense). */
export class BalanceUnavailableError extends Error {
  override readonly name = 'BalanceUnavailableError';
}

/** Where the chain-watcher is and how long a balance may take, as the services configure it. */
export interface ChainWatcherSettings {
  CHAIN_WATCHER_URL: string;
  INTERNAL_TOKEN_SECRET: string;
  CHAIN_WATCHER_TIMEOUT_MS: number;
}

/** A merchant wallet's balances, each failure to read them a BalanceUnavailableError. */
export class WalletBalancesClient {
  private readonly chainWatcher: InternalRouteClient;

  constructor(opts: { baseUrl: string; internalTokenSecret: string; timeoutMs: number }) {
    this.chainWatcher = new InternalRouteClient({
      baseUrl: opts.baseUrl,
      secret: opts.internalTokenSecret,
      timeoutMs: opts.timeoutMs,
      unavailable: (message) => new BalanceUnavailableError(message),
    });
  }

  static fromConfig(config: ChainWatcherSettings): WalletBalancesClient {
    return new WalletBalancesClient({
      baseUrl: config.CHAIN_WATCHER_URL,
      internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
      timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
    });
  }

  walletBalances(merchantId: string): Promise<WalletBalancesAnswer | null> {
    return readWalletBalances(this.chainWatcher, merchantId);
  }
}
