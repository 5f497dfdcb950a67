import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BlockchainName, Currency } from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, verifyInternalToken, type CallerKind } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET } from '@stablepay/platform/testing';

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
  private server?: Server;
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
    this.server = createServer((req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(body));
      };
      const match = /^\/internal\/wallets\/([^/]+)\/balances$/.exec(req.url ?? '');
      if (req.method !== 'GET' || !match)
        return send(404, { success: false, error: 'No route', details: [] });
      const merchantId = decodeURIComponent(match[1]!);
      let caller: CallerKind | undefined;
      try {
        caller = verifyInternalToken(this.secret, String(req.headers[INTERNAL_TOKEN_HEADER] ?? '')).caller;
      } catch {
        caller = undefined;
      }
      this.requests.push({ merchantId, caller });
      if (caller === undefined)
        return send(401, { success: false, error: 'Invalid internal token', details: [] });
      if (caller !== 'service')
        return send(403, { success: false, error: 'Service token required', details: [] });
      if (this.failing) return send(503, { success: false, error: 'Chain unavailable', details: [] });
      const wallet = this.wallets.get(merchantId);
      if (!wallet) return send(404, { success: false, error: 'Wallet not found', details: [] });
      send(200, {
        success: true,
        data: {
          wallet_id: '00000000-0000-4000-8000-000000000001',
          address: '0x1111111111111111111111111111111111111111',
          blockchain: wallet.blockchain,
          balances: Object.entries(wallet.balances).map(([token, amount]) => ({ token, amount })),
        },
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
