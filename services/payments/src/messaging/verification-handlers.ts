import { EventTypes, type EventType } from '@stablepay/contracts';
import { isAppError, type EventHandler, type EventHandlers, type Logger } from '@stablepay/platform';
import { completePaymentIn, failPaymentIn, recordBridgeKitMintIn } from '../domain/payment-state.js';

/**
 * The chain-watcher's verdicts (same-chain, and cross-chain through CCTP) move payments to their
 * final status. A verdict for a payment that
 * already reached the other final status is stale (the payment's state wins) and is dropped with a
 * warning rather than retried forever.
 */
export const verificationHandlers = (logger: Logger): EventHandlers => {
  const applying =
    <T extends EventType>(apply: EventHandler<T>): EventHandler<T> =>
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
    [EventTypes.ChainPaymentVerified]: applying(async ({ data }, trx) => {
      await completePaymentIn(trx, data.paymentId, { receivedAmount: data.receivedAmount });
    }),
    [EventTypes.ChainPaymentRejected]: applying(async ({ data }, trx) => {
      await failPaymentIn(trx, data.paymentId, data.reason, {
        receivedAmount: data.receivedAmount,
        detail: data.detail,
      });
    }),
    // Cross-chain: the bridge-kit mint's hash; the verdict (chain.payment.verified) completes.
    [EventTypes.ChainCctpMinted]: async ({ data }, trx) => {
      if (data.flow === 'bridge_kit') await recordBridgeKitMintIn(trx, data.paymentId, data.mintTxHash);
    },
    [EventTypes.ChainCctpFailed]: applying(async ({ data }, trx) => {
      await failPaymentIn(trx, data.paymentId, data.reason, { detail: data.detail });
    }),
  };
};
