import { InternalPaymentResponse, type InternalPayment } from '@stablepay/contracts';
import { InternalCallError, callInternal } from '@stablepay/platform';
import type { RefundsConfig } from '../config.js';

/** The payments service could not say (down, slow, or answering something else than its contract). */
export class PaymentsUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentsUnavailableError';
  }
}

export interface PaymentSource {
  /** The merchant's payment as the payments service holds it now; null when it has none with that id. */
  currentPayment(merchantId: string, paymentId: string): Promise<InternalPayment | null>;
}

/**
 * Reads one payment from the payments service's internal API
 * (`GET /internal/merchants/:merchantId/payments/:id`) with a short-lived service token.
 */
export class PaymentsClient implements PaymentSource {
  constructor(private readonly opts: { baseUrl: string; internalTokenSecret: string; timeoutMs: number }) {}

  async currentPayment(merchantId: string, paymentId: string): Promise<InternalPayment | null> {
    try {
      const answer = await callInternal({
        service: 'payments',
        baseUrl: this.opts.baseUrl,
        path: `internal/merchants/${encodeURIComponent(merchantId)}/payments/${encodeURIComponent(paymentId)}`,
        secret: this.opts.internalTokenSecret,
        timeoutMs: this.opts.timeoutMs,
        schema: InternalPaymentResponse,
        what: 'payment',
        absentOn: [404],
      });
      return answer ? answer.data : null;
    } catch (err) {
      if (err instanceof InternalCallError) throw new PaymentsUnavailableError(err.message);
      throw err;
    }
  }
}

/** The payment source a deployed service uses: the payments service named in the configuration. */
export const paymentsApi = (config: RefundsConfig): PaymentSource =>
  new PaymentsClient({
    baseUrl: config.PAYMENTS_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.PAYMENTS_TIMEOUT_MS,
  });
