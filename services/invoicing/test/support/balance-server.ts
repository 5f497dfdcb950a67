import type { BlockchainName, Currency } from '@stablepay/contracts';
import type { CallerKind } from '@stablepay/platform';
import { refusal, startServiceDouble, type RunningDouble } from '@stablepay/platform/testing';

interface Wallet {
  address: string;
  blockchain: BlockchainName;
  balances: Partial<Record<Currency, string>>;
}

/**
 * A real HTTP server standing in for the chain-watcher's internal balance route
 * (`GET /internal/wallets/:merchantId/balances`). It verifies the internal token as the chain-watcher
 * does and answers with whatever the test set; a token left out of `balances` is one the chain lacks.
 */
export class BalanceServer {
  readonly requests: Array<{ merchantId: string; caller?: CallerKind }> = [];
  /** While set, every request answers 503. */
  failing = false;
  private readonly wallets = new Map<string, Wallet>();
  private double?: RunningDouble;
  url = '';

  setWallet(merchantId: string, wallet: Wallet): void {
    this.wallets.set(merchantId, wallet);
  }

  /** As for a merchant the chain-watcher has not given a wallet yet. */
  removeWallet(merchantId: string): void {
    this.wallets.delete(merchantId);
  }

  setBalance(merchantId: string, token: Currency, amount: string): void {
    const w = this.wallets.get(merchantId);
    if (!w) throw new Error(`no wallet for ${merchantId}`);
    w.balances[token] = amount;
  }

  async start(): Promise<this> {
    this.double = await startServiceDouble({
      route: (url) => /^\/internal\/wallets\/([^/]+)\/balances$/.exec(url.pathname)?.[1],
      answer: (id, caller) => {
        const merchantId = decodeURIComponent(id);
        this.requests.push({ merchantId, caller });
        if (caller !== 'service') return refusal(401, 'Service token required');
        if (this.failing) return refusal(503, 'Chain unavailable');
        const wallet = this.wallets.get(merchantId);
        if (!wallet) return refusal(404, 'Wallet not found');
        return {
          status: 200,
          body: {
            success: true,
            data: {
              wallet_id: '00000000-0000-4000-8000-000000000001',
              address: wallet.address,
              blockchain: wallet.blockchain,
              balances: Object.entries(wallet.balances).map(([token, amount]) => ({ token, amount })),
            },
          },
        };
      },
    });
    this.url = this.double.url;
    return this;
  }

  async close(): Promise<void> {
    await this.double?.close();
  }
}
