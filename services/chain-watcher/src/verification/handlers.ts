import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { trackTopUp } from './track-top-up.js';
import { paymentTracker } from './track-payment.js';

/** A reported payment or top-up becomes a row the verifier leases until it reaches a verdict. */
export const verificationHandlers = (ctx: WatcherContext): EventHandlers => {
  const trackPayment = paymentTracker(ctx);
  return {
    [EventTypes.PaymentCreated]: (event, trx) => trackPayment(trx, event.data),
    [EventTypes.PaymentTopUpReported]: (event, trx) => trackTopUp(ctx, trx, event.data),
  };
};
