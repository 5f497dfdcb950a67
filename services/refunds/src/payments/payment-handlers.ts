import { EventTypes } from '@stablepay/contracts';
import { PermanentError, writeBatched, type EventHandlers, type Logger } from '@stablepay/platform';
import type { Knex } from 'knex';
import { insertPaymentsIfNew } from './payments-repo.js';
import { toRefundablePayment, toRefundableShortfall } from './payment-projection.js';
import type { RefundablePayment } from './refundable-payment.js';

/**
 * Keeps the projection of refundable payments: completed ones, and failed ones whose money reached
 * the merchant wallet short of the amount (underpaid). A payment whose funds cannot be sent back
 * (no known chain, no payer address) is dead-lettered with the reason, for an operator to see.
 * Deliveries handled together are projected by one INSERT (nothing in the consumer reads the
 * projection back in the same transaction).
 */
export const paymentProjectionHandlers = (logger: Logger): EventHandlers => {
  const project = async (trx: Knex.Transaction, payments: RefundablePayment[]): Promise<void> => {
    const inserted = new Set(await insertPaymentsIfNew(trx, payments));
    for (const p of payments)
      if (!inserted.delete(p.paymentId)) logger.info('payment already projected', { paymentId: p.paymentId });
  };
  return {
    [EventTypes.PaymentCompleted]: async ({ data }, trx) => {
      const projected = toRefundablePayment(data);
      if (!projected.ok)
        throw new PermanentError(`payment ${data.payment_id} cannot be refunded: ${projected.problem}`);
      await writeBatched(trx, project, projected.payment);
    },
    [EventTypes.PaymentFailed]: async ({ data, occurredAt }, trx) => {
      const projected = toRefundableShortfall(data, new Date(occurredAt));
      if (!projected) return;
      if (!projected.ok)
        throw new PermanentError(`payment ${data.payment_id} cannot be refunded: ${projected.problem}`);
      await writeBatched(trx, project, projected.payment);
    },
  };
};
