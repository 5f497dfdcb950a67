import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BlockchainName, CctpFeeInputs } from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, verifyInternalToken, type CallerKind } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET } from '@stablepay/platform/testing';

export interface FeeInputsRequest {
  destinationChain: string | null;
  /** the caller named by the internal token; undefined when the token did not verify */
  caller?: CallerKind;
}

/**
 * A real HTTP server standing in for the chain-watcher's internal fee-input route
 * (`GET /internal/cctp/fee-inputs`). It verifies the internal token exactly as the chain-watcher
 * does and answers with whatever the test set.
 */
export class FeeInputsServer {
  readonly requests: FeeInputsRequest[] = [];
  /** While set, every request answers 503. */
  failing = false;
  /** While set, every request answers 200 with this body instead. */
  rawAnswer?: string;
  private readonly inputs = new Map<BlockchainName, CctpFeeInputs>();
  private server?: Server;
  url = '';

  constructor(private readonly secret: string = TEST_INTERNAL_SECRET) {}

  set(inputs: CctpFeeInputs): this {
    this.inputs.set(inputs.blockchain, inputs);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (req.method !== 'GET' || url.pathname !== '/internal/cctp/fee-inputs')
        return send(404, { success: false, error: 'No route', details: [] });
      let caller: CallerKind | undefined;
      try {
        caller = verifyInternalToken(this.secret, String(req.headers[INTERNAL_TOKEN_HEADER] ?? '')).caller;
      } catch {
        caller = undefined;
      }
      const destinationChain = url.searchParams.get('destinationChain');
      this.requests.push({ destinationChain, caller });
      if (caller === undefined)
        return send(401, { success: false, error: 'Invalid internal token', details: [] });
      if (caller !== 'service')
        return send(403, { success: false, error: 'Service token required', details: [] });
      if (this.failing) return send(503, { success: false, error: 'Chain unavailable', details: [] });
      if (this.rawAnswer !== undefined) return send(200, this.rawAnswer);
      const inputs = this.inputs.get(destinationChain as BlockchainName);
      if (!inputs) return send(400, { success: false, error: 'Chain not served', details: [] });
      send(200, { success: true, data: inputs });
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
