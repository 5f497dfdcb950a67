import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers, Logger } from '@stablepay/platform';
import { recordRelayedTransaction } from './gasless-repo.js';

/**
 * chain.payment.relayed: the relay's transaction for a gasless payment is known, so the payment
 * shows it while it is pending. The chain's verdict (chain.payment.verified) later sets the hash of
 * the transaction that really used the authorization, whoever sent it.
 */
export const gaslessRelayHandlers = (logger: Logger): EventHandlers => ({
  [EventTypes.ChainPaymentRelayed]: async ({ id, data }, trx) => {
    if (!(await recordRelayedTransaction(trx, data))) {
      logger.info('relayed transaction not recorded: the payment is no longer pending', {
        eventId: id,
        paymentId: data.paymentId,
      });
    }
  },
});
