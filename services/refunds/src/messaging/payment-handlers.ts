import { EventTypes, PaymentCompletedData } from '@stablepay/contracts';
import { PermanentError, type Logger, type TransactionalHandler } from '@stablepay/platform';
import { insertPaymentIfNew } from '../db/payments-repo.js';
import { toRefundablePayment } from '../domain/payment-projection.js';

/**
 * Keeps the projection of refundable payments. A completed payment whose funds cannot be sent back
 * (no known chain, no payer address) is dead-lettered with the reason, for an operator to see.
 */
export const paymentProjectionHandlers = (logger: Logger): Record<string, TransactionalHandler> => ({
  [EventTypes.PaymentCompleted]: async (event, trx) => {
    const data = PaymentCompletedData.parse(event.data);
    const projected = toRefundablePayment(data);
    if (!projected.ok)
      throw new PermanentError(`payment ${data.payment_id} cannot be refunded: ${projected.problem}`);
    if (!(await insertPaymentIfNew(trx, projected.payment))) {
      logger.info('payment already projected', { paymentId: data.payment_id });
    }
  },
});
