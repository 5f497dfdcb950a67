import { EventTypes } from '@stablepay/contracts';
import { PermanentError, type EventHandlers, type Logger } from '@stablepay/platform';
import { insertPaymentIfNew } from './payments-repo.js';
import { toRefundablePayment, toRefundableShortfall } from './payment-projection.js';

/**
 * Keeps the projection of refundable payments: completed ones, and failed ones whose money reached
 * the merchant wallet short of the amount (underpaid). A payment whose funds cannot be sent back
 * (no known chain, no payer address) is dead-lettered with the reason, for an operator to see.
 */
export const paymentProjectionHandlers = (logger: Logger): EventHandlers => ({
  [EventTypes.PaymentCompleted]: async ({ data }, trx) => {
    const projected = toRefundablePayment(data);
    if (!projected.ok)
      throw new PermanentError(`payment ${data.payment_id} cannot be refunded: ${projected.problem}`);
    if (!(await insertPaymentIfNew(trx, projected.payment))) {
      logger.info('payment already projected', { paymentId: data.payment_id });
    }
  },
  [EventTypes.PaymentFailed]: async ({ data, occurredAt }, trx) => {
    const projected = toRefundableShortfall(data, new Date(occurredAt));
    if (!projected) return;
    if (!projected.ok)
      throw new PermanentError(`payment ${data.payment_id} cannot be refunded: ${projected.problem}`);
    if (!(await insertPaymentIfNew(trx, projected.payment))) {
      logger.info('payment already projected', { paymentId: data.payment_id });
    }
  },
});
