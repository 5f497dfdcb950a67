import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CctpFeeInputs, GaslessCheck, GaslessCheckBody, TokenDomainView } from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, verifyInternalToken } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET } from '@stablepay/platform/testing';

/** What the stand-in answers a check with: a status, its body, and Retry-After when set. */
export interface CheckAnswer {
  status: number;
  body: unknown;
  retryAfter?: number;
}

/** A refusal as the chain-watcher writes it: the envelope with one detail naming its code. */
export const refusalAnswer = (status: number, code: string, retryAfter?: number): CheckAnswer => ({
  status,
  body: {
    success: false,
    error: `Refused: ${code}`,
    details: [{ path: 'authorization', message: `refused (${code})`, code }],
  },
  retryAfter,
});

/**
 * A real HTTP server standing in for the chain-watcher's internal routes that gasless payments use:
 * the token domain, the relayers, the chains' gas prices, the relay's gas estimate and its check (a POST, which the
 * platform's GET-only service double does not serve). It verifies the internal token as the
 * chain-watcher does and answers what the test set.
 */
export class GaslessRelayServer {
  readonly checks: GaslessCheckBody[] = [];
  /** every request's method and path, in order */
  readonly requests: string[] = [];
  readonly domains = new Map<string, TokenDomainView>();
  readonly relayers: Array<{ chainId: number; blockchain: string; address: string }> = [];
  readonly gasPrices = new Map<string, CctpFeeInputs>();
  check: CheckAnswer = { status: 200, body: undefined };
  /** The relay's gas estimates the quote asks for: its submission, and across chains its burn. */
  estimate = { submitGasUnits: '90000', burnGasUnits: '200000' };
  /** every gas-estimate query, in order */
  readonly estimates: Array<Record<string, string>> = [];
  /** While set, every request fails at the socket (the chain-watcher is down). */
  down = false;
  private server?: Server;
  url = '';

  constructor(private readonly secret: string = TEST_INTERNAL_SECRET) {}

  domain(chainId: number, token: string, domain: TokenDomainView): this {
    this.domains.set(`${chainId}:${token}`, domain);
    return this;
  }

  relayer(chainId: number, blockchain: string, address: string): this {
    this.relayers.push({ chainId, blockchain, address });
    return this;
  }

  prices(inputs: CctpFeeInputs): this {
    this.gasPrices.set(inputs.blockchain, inputs);
    return this;
  }

  /** The check's usual answer: the relay can submit, with this gas. */
  passes(answer: GaslessCheck): this {
    this.check = { status: 200, body: { success: true, data: answer } };
    return this;
  }

  private async answer(req: IncomingMessage, url: URL): Promise<CheckAnswer> {
    try {
      const { caller } = verifyInternalToken(this.secret, String(req.headers[INTERNAL_TOKEN_HEADER] ?? ''));
      if (caller !== 'service') return refusalAnswer(403, 'service_token_required');
    } catch {
      return refusalAnswer(401, 'invalid_internal_token');
    }
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /internal/gasless/token-domain') {
      const domain = this.domains.get(`${url.searchParams.get('chainId')}:${url.searchParams.get('token')}`);
      return domain
        ? { status: 200, body: { success: true, data: domain } }
        : refusalAnswer(404, 'not_found');
    }
    if (route === 'GET /internal/relayers') {
      const relayers = this.relayers.map((r) => ({ ...r, source: 'derived', nativeBalanceWei: '10' }));
      return { status: 200, body: { success: true, data: { relayers } } };
    }
    if (route === 'GET /internal/cctp/fee-inputs') {
      const inputs = this.gasPrices.get(url.searchParams.get('destinationChain') ?? '');
      return inputs ? { status: 200, body: { success: true, data: inputs } } : refusalAnswer(400, 'unknown');
    }
    if (route === 'GET /internal/gasless/gas-estimate') {
      const query = Object.fromEntries(url.searchParams);
      this.estimates.push(query);
      const crossChain = query.destinationChainId !== undefined && query.destinationChainId !== query.chainId;
      const data = { ...this.estimate, burnGasUnits: crossChain ? this.estimate.burnGasUnits : '0' };
      return { status: 200, body: { success: true, data } };
    }
    if (route === 'POST /internal/gasless/check') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      this.checks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as GaslessCheckBody);
      return this.check;
    }
    return refusalAnswer(404, 'no_route');
  }

  async start(): Promise<this> {
    this.server = createServer((req, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://double');
      this.requests.push(`${req.method} ${url.pathname}`);
      if (this.down) return req.socket.destroy();
      void this.answer(req, url).then(({ status, body, retryAfter }) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
        res.writeHead(status, headers);
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    await new Promise<void>((resolve) => {
      this.server!.close(() => resolve());
      this.server!.closeAllConnections();
    });
  }
}
