import type { InternalPayment } from '@stablepay/contracts';
import { AppError, fieldDetail, notFound } from '@stablepay/platform';
import { PaymentsUnavailableError } from './payments-client.js';
import { insertPaymentIfNew } from './payments-repo.js';
import type { RefundsContext } from '../context.js';
import { receivedShort, toRefundablePayment, toRefundableShortfall } from './payment-projection.js';

/**
 * The projection row of a payment as the payments service shows it now: a completed one, or one
 * that failed underpaid with money received; undefined for any other.
 */
const projectionOf = (current: InternalPayment) => {
  const common = { ...current, to_address: null };
  if (current.status === 'completed' && current.completed_at !== null) {
    return toRefundablePayment({ ...common, status: 'completed', completed_at: current.completed_at });
  }
  const failure = { failure_reason: current.failure_reason ?? '', received_amount: current.received_amount };
  if (current.status === 'failed' && current.failed_at && receivedShort(failure)) {
    return toRefundableShortfall({ ...common, ...failure, status: 'failed' }, new Date(current.failed_at));
  }
  return undefined;
};

/** Seconds a client is asked to wait when the payments service cannot be asked. */
const RETRY_AFTER_SECONDS = 5;

/**
 * A payment the projection does not hold yet (payment.completed is still on its way, for as long
 * as the message retry delays after an outage) is read from the payments service and projected,
 * so a refund of a completed payment is never answered 404 for lag. The projection holds
 * completed payments and underpaid failed ones with money received, both final: an existing row is
 * never replaced. Another
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
  const projected = projectionOf(current);
  if (!projected) {
    throw new AppError('unprocessable', 'Only a completed payment can be refunded', [
      fieldDetail('paymentId', `The payment is ${current.status}`, 'payment_not_completed'),
    ]);
  }
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
