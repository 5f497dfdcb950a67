import { InternalPayment } from '@stablepay/contracts';
import { refusal, startServiceDouble, type RunningDouble } from '@stablepay/platform/testing';

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
  private double?: RunningDouble;
  url = '';

  setPayment(p: InternalPayment): void {
    this.payments.set(p.payment_id, InternalPayment.parse(p));
  }

  requestsFor(paymentId: string) {
    return this.requests.filter((r) => r.paymentId === paymentId);
  }

  async start(): Promise<this> {
    this.double = await startServiceDouble({
      route: (url) => {
        const m = /^\/internal\/merchants\/([^/]+)\/payments\/([^/]+)$/.exec(url.pathname);
        return m
          ? { merchantId: decodeURIComponent(m[1]!), paymentId: decodeURIComponent(m[2]!) }
          : undefined;
      },
      answer: ({ merchantId, paymentId }, caller) => {
        if (caller === undefined) return refusal(401, 'Invalid internal token');
        if (caller !== 'service') return refusal(403, 'Service token required');
        this.requests.push({ merchantId, paymentId });
        if (this.failing) return refusal(503, 'Service unavailable');
        const payment = this.payments.get(paymentId);
        if (!payment || payment.merchant_id !== merchantId) return refusal(404, 'Payment not found');
        return { status: 200, body: { success: true, data: payment } };
      },
    });
    this.url = this.double.url;
    return this;
  }

  async close(): Promise<void> {
    await this.double?.close();
  }
}
