import { ApiError } from '../api.js';
import { PayError } from './errors.js';
import type { PayContext, PaymentOutcome } from './types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Where the service's verification of the payment stands, asked once: through the session (which
 * turns `complete` with it) or, for the widget, the payment's public status. A gateway blip reads as
 * still pending; less arrived than the session asks ends in the top-up view (ui/TopUp.tsx).
 */
export const settlementNow = async (
  ctx: PayContext,
  paymentId: string,
): Promise<'completed' | 'failed' | 'pending'> => {
  try {
    if (ctx.target.sessionId) {
      const session = await ctx.api.session(ctx.target.sessionId);
      if (session.status === 'complete') return 'completed';
      if (session.payment?.status === 'failed') return 'failed';
      if (session.payment?.amount_due && !session.payment.top_up_pending)
        throw new PayError('top_up_needed', 'Part of the payment is missing');
      return 'pending';
    }
    const status = await ctx.api.paymentStatus(paymentId);
    return status.status === 'completed' || status.status === 'failed' ? status.status : 'pending';
  } catch (err) {
    // A blip of the gateway is waited out; anything else is the customer's to see.
    if (err instanceof ApiError && err.status >= 500) return 'pending';
    throw err;
  }
};

export const paymentFailed = () =>
  new PayError('payment_failed', 'The payment failed verification', { reason: 'failed' });

/** Waits until the service has verified the payment on-chain, polled gently (public routes are rate limited). */
export const waitForSettlement = async (
  ctx: PayContext,
  paymentId: string,
  txHash: string,
): Promise<PaymentOutcome> => {
  for (let delay = 1000; ; delay = Math.min(delay + 500, 4000)) {
    ctx.signal.throwIfAborted();
    const state = await settlementNow(ctx, paymentId);
    if (state === 'completed') return { paymentId, txHash, status: 'completed' };
    if (state === 'failed') throw paymentFailed();
    await sleep(delay);
  }
};
