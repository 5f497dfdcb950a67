import { ApiError } from '../api.js';
import { PayError } from './errors.js';
import type { PayContext, PaymentOutcome } from './types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the service has verified the payment on-chain: through the session (which turns
 * `complete` with it) or, for the widget, the payment's public status. Polled gently, as public
 * routes are rate limited per address.
 */
export const waitForSettlement = async (
  ctx: PayContext,
  paymentId: string,
  txHash: string,
): Promise<PaymentOutcome> => {
  for (let delay = 1000; ; delay = Math.min(delay + 500, 4000)) {
    ctx.signal.throwIfAborted();
    try {
      if (ctx.target.sessionId) {
        const session = await ctx.api.session(ctx.target.sessionId);
        if (session.status === 'complete') return { paymentId, txHash, status: 'completed' };
        if (session.payment?.status === 'failed') break;
        // Less arrived than the session asks: the page asks for the rest (ui/TopUp.tsx).
        if (session.payment?.amount_due && !session.payment.top_up_pending)
          throw new PayError('top_up_needed', 'Part of the payment is missing');
      } else {
        const status = await ctx.api.paymentStatus(paymentId);
        if (status.status === 'completed') return { paymentId, txHash, status: 'completed' };
        if (status.status === 'failed') break;
      }
    } catch (err) {
      // A blip of the gateway is waited out; anything else is the customer's to see.
      if (!(err instanceof ApiError) || err.status < 500) throw err;
    }
    await sleep(delay);
  }
  throw new PayError('payment_failed', 'The payment failed verification', { reason: 'failed' });
};
