import {
  InternalBalancesResponse,
  normalizeDecimal,
  type BlockchainName,
  type Currency,
} from '@stablepay/contracts';
import { InternalCallError, callInternal } from '@stablepay/platform';

/** The balance could not be read (chain-watcher down, slow, or answering nonsense). */
export class BalanceUnavailableError extends Error {
  override readonly name = 'BalanceUnavailableError';
}

export interface MerchantWallet {
  address: string;
  blockchain: BlockchainName;
  /** 6-decimal strings, one per token the merchant's chain has (a token it lacks is absent) */
  balances: ReadonlyMap<Currency, string>;
}

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
    let answer: InternalBalancesResponseData | undefined;
    try {
      answer = await callInternal({
        service: 'chain-watcher',
        baseUrl: this.opts.baseUrl,
        path: `internal/wallets/${encodeURIComponent(merchantId)}/balances`,
        secret: this.opts.internalTokenSecret,
        timeoutMs: this.opts.timeoutMs,
        schema: InternalBalancesResponse,
        what: 'balance',
        absentOn: [404],
      });
    } catch (err) {
      if (err instanceof InternalCallError) throw new BalanceUnavailableError(err.message);
      throw err;
    }
    if (!answer) return null;
    const balances = new Map<Currency, string>();
    try {
      for (const b of answer.data.balances) balances.set(b.token, normalizeDecimal(b.amount));
    } catch {
      throw new BalanceUnavailableError('chain-watcher answered with an amount of more than 6 decimals');
    }
    return { address: answer.data.address, blockchain: answer.data.blockchain, balances };
  }
}

type InternalBalancesResponseData = ReturnType<(typeof InternalBalancesResponse)['parse']>;

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
