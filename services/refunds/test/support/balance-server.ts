import type { BlockchainName, Currency } from '@stablepay/contracts';
import type { CallerKind } from '@stablepay/platform';
import {
  TEST_INTERNAL_SECRET,
  refusal,
  startServiceDouble,
  type RunningDouble,
} from '@stablepay/platform/testing';

export interface BalanceRequest {
  merchantId: string;
  /** the caller named by the internal token; undefined when the token did not verify */
  caller?: CallerKind;
}

/**
 * A real HTTP server standing in for the chain-watcher's internal balance route
 * (`GET /internal/wallets/:merchantId/balances`). It verifies the internal token exactly as the
 * chain-watcher does and answers with whatever the test set.
 */
export class BalanceServer {
  readonly requests: BalanceRequest[] = [];
  /** While set, every request answers 503. */
  failing = false;
  private readonly wallets = new Map<
    string,
    { blockchain: BlockchainName; balances: Partial<Record<Currency, string>> }
  >();
  private double?: RunningDouble;
  url = '';

  /** The secret the services under test sign with, unless a test wants another. */
  constructor(private readonly secret: string = TEST_INTERNAL_SECRET) {}

  setBalance(
    merchantId: string,
    balances: Partial<Record<Currency, string>>,
    blockchain: BlockchainName = 'BASE',
  ) {
    this.wallets.set(merchantId, { blockchain, balances });
  }

  requestsFor(merchantId: string): BalanceRequest[] {
    return this.requests.filter((r) => r.merchantId === merchantId);
  }

  async start(): Promise<this> {
    this.double = await startServiceDouble({
      secret: this.secret,
      route: (url) => /^\/internal\/wallets\/([^/]+)\/balances$/.exec(url.pathname)?.[1],
      answer: (id, caller) => {
        const merchantId = decodeURIComponent(id);
        this.requests.push({ merchantId, caller });
        if (caller === undefined) return refusal(401, 'Invalid internal token');
        if (caller !== 'service') return refusal(403, 'Service token required');
        if (this.failing) return refusal(503, 'Chain unavailable');
        const wallet = this.wallets.get(merchantId);
        if (!wallet) return refusal(404, 'Wallet not found');
        return {
          status: 200,
          body: {
            success: true,
            data: {
              wallet_id: '00000000-0000-4000-8000-000000000001',
              address: '0x1111111111111111111111111111111111111111',
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
