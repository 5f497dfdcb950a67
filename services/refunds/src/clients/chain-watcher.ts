import {
  WalletBalanceResponse,
  normalizeDecimal,
  type Currency,
  type WalletBalance,
} from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, currentContext, signInternalToken } from '@stablepay/platform';
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
    const url = new URL(`internal/wallets/${encodeURIComponent(merchantId)}/balances`, this.base());
    const headers: Record<string, string> = {
      accept: 'application/json',
      [INTERNAL_TOKEN_HEADER]: signInternalToken(this.opts.internalTokenSecret, { caller: 'service' }, 60),
    };
    const { correlationId } = currentContext();
    if (correlationId) headers['x-correlation-id'] = correlationId;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch (err) {
      throw new BalanceUnavailableError(
        `chain-watcher unreachable: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      throw new BalanceUnavailableError(`chain-watcher answered ${res.status}: ${text.slice(0, 200)}`);
    let parsed: ReturnType<typeof WalletBalanceResponse.safeParse>;
    try {
      parsed = WalletBalanceResponse.safeParse(JSON.parse(text));
    } catch {
      throw new BalanceUnavailableError('chain-watcher answered with a body that is not JSON');
    }
    if (!parsed.success)
      throw new BalanceUnavailableError('chain-watcher answered with an unexpected balance shape');
    const amounts = new Map<string, string>();
    try {
      for (const b of parsed.data.data.balances) amounts.set(b.token, normalizeDecimal(b.amount));
    } catch {
      throw new BalanceUnavailableError('chain-watcher answered with an amount of more than 6 decimals');
    }
    return {
      blockchain: parsed.data.data.blockchain,
      amountOf: (token) => amounts.get(token) ?? '0.000000',
    };
  }

  private base(): string {
    return this.opts.baseUrl.endsWith('/') ? this.opts.baseUrl : `${this.opts.baseUrl}/`;
  }
}

/** The balance source a deployed service uses: the chain-watcher named in the configuration. */
export const chainWatcherBalances = (config: RefundsConfig): BalanceSource =>
  new ChainWatcherClient({
    baseUrl: config.CHAIN_WATCHER_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
  });
