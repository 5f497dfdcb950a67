import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BlockchainName, Currency } from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, verifyInternalToken, type CallerKind } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET } from '@stablepay/platform/testing';

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
  private server?: Server;
  url = '';

  setWallet(merchantId: string, wallet: Wallet): void {
    this.wallets.set(merchantId, wallet);
  }

  setBalance(merchantId: string, token: Currency, amount: string): void {
    const w = this.wallets.get(merchantId);
    if (!w) throw new Error(`no wallet for ${merchantId}`);
    w.balances[token] = amount;
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
        caller = verifyInternalToken(
          TEST_INTERNAL_SECRET,
          String(req.headers[INTERNAL_TOKEN_HEADER] ?? ''),
        ).caller;
      } catch {
        caller = undefined;
      }
      this.requests.push({ merchantId, caller });
      if (caller !== 'service')
        return send(401, { success: false, error: 'Service token required', details: [] });
      if (this.failing) return send(503, { success: false, error: 'Chain unavailable', details: [] });
      const wallet = this.wallets.get(merchantId);
      if (!wallet) return send(404, { success: false, error: 'Wallet not found', details: [] });
      send(200, {
        success: true,
        data: {
          wallet_id: '00000000-0000-4000-8000-000000000001',
          address: wallet.address,
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
