import { ChainPaymentRejectedData, ChainPaymentVerifiedData, EventTypes } from '@stablepay/contracts';
import { isAppError, type Logger, type TransactionalHandler } from '@stablepay/platform';
import { completePaymentIn, failPaymentIn } from '../domain/payment-state.js';

/**
 * The chain-watcher's verdicts move payments to their final status. A verdict for a payment that
 * already reached the other final status is stale (the payment's state wins) and is dropped with a
 * warning rather than retried forever.
 */
export const verificationHandlers = (logger: Logger): Record<string, TransactionalHandler> => {
  const applying =
    (apply: TransactionalHandler): TransactionalHandler =>
    async (event, trx) => {
      try {
        await apply(event, trx);
      } catch (err) {
        if (isAppError(err) && err.kind === 'conflict') {
          logger.warn('verdict for a payment in a final status ignored', {
            eventId: event.id,
            type: event.type,
            error: err.message,
          });
          return;
        }
        throw err;
      }
    };
  return {
    [EventTypes.ChainPaymentVerified]: applying(async (event, trx) => {
      const verdict = ChainPaymentVerifiedData.parse(event.data);
      await completePaymentIn(trx, verdict.paymentId, { receivedAmount: verdict.receivedAmount });
    }),
    [EventTypes.ChainPaymentRejected]: applying(async (event, trx) => {
      const verdict = ChainPaymentRejectedData.parse(event.data);
      await failPaymentIn(trx, verdict.paymentId, verdict.reason, {
        receivedAmount: verdict.receivedAmount,
        detail: verdict.detail,
      });
    }),
  };
};
