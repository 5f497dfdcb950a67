import type { InternalPayment } from '@stablepay/contracts';
import { InternalRouteClient } from '@stablepay/platform';
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

/** Reads one payment from the payments service's internal `getInternalPayment` route. */
export class PaymentsClient implements PaymentSource {
  private readonly payments: InternalRouteClient;

  constructor(opts: { baseUrl: string; internalTokenSecret: string; timeoutMs: number }) {
    this.payments = new InternalRouteClient({
      baseUrl: opts.baseUrl,
      secret: opts.internalTokenSecret,
      timeoutMs: opts.timeoutMs,
      unavailable: (message) => new PaymentsUnavailableError(message),
    });
  }

  async currentPayment(merchantId: string, paymentId: string): Promise<InternalPayment | null> {
    const answer = await this.payments.get('getInternalPayment', {
      params: { merchantId, id: paymentId },
      what: 'payment',
      absentOn: [404],
    });
    return answer ? answer.data : null;
  }
}

/** The payment source a deployed service uses: the payments service named in the configuration. */
export const paymentsApi = (config: RefundsConfig): PaymentSource =>
  new PaymentsClient({
    baseUrl: config.PAYMENTS_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.PAYMENTS_TIMEOUT_MS,
  });
