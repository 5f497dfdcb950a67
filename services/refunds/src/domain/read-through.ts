import type { InternalPayment } from '@stablepay/contracts';
import { AppError, fieldDetail, notFound } from '@stablepay/platform';
import { PaymentsUnavailableError } from '../clients/payments.js';
import { insertPaymentIfNew } from '../db/payments-repo.js';
import type { RefundsContext } from './context.js';
import { toRefundablePayment } from './payment-projection.js';

/** Seconds a client is asked to wait when the payments service cannot be asked. */
const RETRY_AFTER_SECONDS = 5;

/**
 * A payment the projection does not hold yet (payment.completed is still on its way, for as long
 * as the message retry delays after an outage) is read from the payments service and projected,
 * so a refund of a completed payment is never answered 404 for lag. The projection holds
 * completed payments only, and completed is final: an existing row is never replaced. Another
 * merchant's payment stays not found; a payment not completed yet is refused as the projection
 * would refuse it; the payments service down is a 503 with Retry-After, never a 404.
 */
export const learnPayment = async (
  ctx: RefundsContext,
  merchantId: string,
  paymentId: string,
): Promise<void> => {
  let current: InternalPayment | null;
  try {
    current = await ctx.payments.currentPayment(merchantId, paymentId);
  } catch (err) {
    if (!(err instanceof PaymentsUnavailableError)) throw err;
    ctx.logger.warn('payments service unavailable for a payment not projected yet', {
      paymentId,
      error: err.message,
    });
    throw new AppError('unavailable', 'Payments service unavailable; retry shortly', [], RETRY_AFTER_SECONDS);
  }
  if (!current || current.merchant_id !== merchantId) throw notFound('Payment');
  if (current.status !== 'completed' || current.completed_at === null) {
    throw new AppError('unprocessable', 'Only a completed payment can be refunded', [
      fieldDetail('paymentId', `The payment is ${current.status}`, 'payment_not_completed'),
    ]);
  }
  const projected = toRefundablePayment({
    ...current,
    status: 'completed',
    completed_at: current.completed_at,
    to_address: null,
  });
  if (!projected.ok) {
    // The same payment.completed would be dead-lettered: nothing can be sent back.
    ctx.logger.error('payment cannot be refunded', { paymentId, problem: projected.problem });
    throw new AppError('unprocessable', 'This payment cannot be refunded', [
      fieldDetail('paymentId', projected.problem, 'payment_not_refundable'),
    ]);
  }
  if (await insertPaymentIfNew(ctx.db, projected.payment)) {
    ctx.logger.info('payment projected from the payments service', { paymentId });
  }
};
