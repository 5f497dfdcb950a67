import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InternalPayment } from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, verifyInternalToken } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET } from '@stablepay/platform/testing';

/**
 * A real HTTP server standing in for the payments service's internal payment route
 * (`GET /internal/merchants/:merchantId/payments/:id`): it verifies the internal token as the
 * payments service does, keeps each payment for its own merchant only, and answers what the test
 * set, checked against the route's contract.
 */
export class PaymentsServer {
  readonly requests: Array<{ merchantId: string; paymentId: string }> = [];
  /** While set, every request answers 503. */
  failing = false;
  private readonly payments = new Map<string, InternalPayment>();
  private server?: Server;
  url = '';

  setPayment(p: InternalPayment): void {
    this.payments.set(p.payment_id, InternalPayment.parse(p));
  }

  requestsFor(paymentId: string) {
    return this.requests.filter((r) => r.paymentId === paymentId);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(body));
      };
      const match = /^\/internal\/merchants\/([^/]+)\/payments\/([^/]+)$/.exec(req.url ?? '');
      if (req.method !== 'GET' || !match)
        return send(404, { success: false, error: 'No route', details: [] });
      try {
        if (
          verifyInternalToken(TEST_INTERNAL_SECRET, String(req.headers[INTERNAL_TOKEN_HEADER] ?? ''))
            .caller !== 'service'
        )
          return send(403, { success: false, error: 'Service token required', details: [] });
      } catch {
        return send(401, { success: false, error: 'Invalid internal token', details: [] });
      }
      const [merchantId, paymentId] = [decodeURIComponent(match[1]!), decodeURIComponent(match[2]!)];
      this.requests.push({ merchantId, paymentId });
      if (this.failing) return send(503, { success: false, error: 'Service unavailable', details: [] });
      const payment = this.payments.get(paymentId);
      if (!payment || payment.merchant_id !== merchantId)
        return send(404, { success: false, error: 'Payment not found', details: [] });
      send(200, { success: true, data: payment });
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
