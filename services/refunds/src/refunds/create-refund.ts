import { randomUUID } from 'node:crypto';
import { baseUnitsToDecimal, decimalToBaseUnits, type CreateRefundBody } from '@stablepay/contracts';
import { AppError, createOnce, fieldDetail, madeByKey, notFound, type RequestKey } from '@stablepay/platform';
import { lockPayment } from '../payments/payments-repo.js';
import { committedRefundTotal, findRefundByRequestKey, insertRefund } from './refunds-repo.js';
import { learnPayment } from '../payments/read-through.js';
import { refundEventData } from './refund-events.js';
import type { RefundsContext } from '../context.js';
import type { RefundRecord } from './records.js';
import { defaultRefundUnits, refundableRemainder, withinRefundWindow } from './rules.js';

/** The projection has no such payment of the merchant (yet): the payments service is asked. */
class PaymentNotProjected extends Error {}

const refused = (message: string, path: string, detail: string, code: string): AppError =>
  new AppError('unprocessable', message, [fieldDetail(path, detail, code)]);

/**
 * POST /refunds/api/create. The payment row is locked for the whole transaction, so concurrent
 * refunds of one payment are decided one after another and their sum can never pass what the
 * merchant wallet received for it (the ceiling; see refundableRemainder). `amount` defaults to the
 * payment's amount, capped by the ceiling. The refund and its refund.created event are committed together. With the client's
 * Idempotency-Key (`requestKey`), a request that already made a refund returns it (the key with
 * another body is a 422): the gateway forgets a key whose answer it never got, so only this check
 * stops a second refund; it is made again under the payment's lock. A payment the
 * projection does not hold yet is read from the payments service first (read-through.ts).
 */
export const createRefund = (
  ctx: RefundsContext,
  merchantId: string,
  body: CreateRefundBody,
  requestKey?: RequestKey,
): Promise<RefundRecord> =>
  createOnce({
    requestKey,
    // A concurrent request with the same key for another payment (another lock) committed first.
    uniqueIndex: 'refunds_merchant_request_key_idx',
    find: (key) => findRefundByRequestKey(ctx.db, merchantId, key),
    create: () =>
      readingThrough(ctx, merchantId, body.paymentId, () => decideRefund(ctx, merchantId, body, requestKey)),
  });

/** `decide`; when the projection lacks the payment, read it from the payments service and decide again. */
const readingThrough = async (
  ctx: RefundsContext,
  merchantId: string,
  paymentId: string,
  decide: () => Promise<RefundRecord>,
): Promise<RefundRecord> => {
  try {
    try {
      return await decide();
    } catch (err) {
      if (!(err instanceof PaymentNotProjected)) throw err;
      // Read through to the payments service outside any transaction, then decide again.
      await learnPayment(ctx, merchantId, paymentId);
      return await decide();
    }
  } catch (err) {
    if (err instanceof PaymentNotProjected) throw notFound('Payment');
    throw err;
  }
};

const decideRefund = async (
  ctx: RefundsContext,
  merchantId: string,
  body: CreateRefundBody,
  requestKey: RequestKey | undefined,
): Promise<RefundRecord> => {
  let replayed = false;
  const refund = await ctx.db.transaction(async (trx) => {
    const payment = await lockPayment(trx, body.paymentId, merchantId);
    if (!payment) throw new PaymentNotProjected();
    // Under the payment's lock: a request with the same key that committed meanwhile is found here.
    const made = await madeByKey(requestKey, (key) => findRefundByRequestKey(trx, merchantId, key));
    if (made) {
      replayed = true;
      return made;
    }
    // The projection holds completed payments, and failed ones that left money in the merchant
    // wallet (underpaid): both can give back what arrived.
    if (payment.status !== 'completed' && payment.status !== 'failed') {
      throw refused(
        'Only a completed payment can be refunded',
        'paymentId',
        `The payment is ${payment.status}`,
        'payment_not_completed',
      );
    }
    if (!withinRefundWindow(payment.completedAt, ctx.now(), ctx.refundWindowDays)) {
      throw refused(
        `A payment can be refunded only within ${ctx.refundWindowDays} days after it completed`,
        'paymentId',
        `The payment ${payment.status === 'failed' ? 'failed' : 'completed'} on ${payment.completedAt.toISOString()}`,
        'refund_window_expired',
      );
    }
    const remainder = refundableRemainder(payment, await committedRefundTotal(trx, payment.paymentId));
    if (remainder === 0n) {
      throw refused(
        'The payment is already fully refunded',
        'paymentId',
        `Pending, processing and completed refunds already cover the ${payment.receivedAmount ?? payment.amount} ${payment.currency} received`,
        'payment_fully_refunded',
      );
    }
    const amount = body.amount ?? baseUnitsToDecimal(defaultRefundUnits(payment.amount, remainder));
    if (decimalToBaseUnits(amount) > remainder) {
      const left = `${baseUnitsToDecimal(remainder)} ${payment.currency}`;
      throw refused(
        'Refund amount exceeds the refundable amount of the payment',
        'amount',
        `At most ${left} of this payment can still be refunded`,
        'amount_exceeds_refundable',
      );
    }
    const created = await insertRefund(trx, {
      id: randomUUID(),
      merchant_id: merchantId,
      payment_id: payment.paymentId,
      amount,
      currency: payment.currency,
      destination_address: payment.fromAddress,
      blockchain: payment.blockchain,
      reason: body.reason,
      note: body.note ?? null,
      request_key: requestKey?.key ?? null,
      request_fingerprint: requestKey?.fingerprint ?? null,
    });
    await ctx.writeEvent(trx, 'refund.created', merchantId, refundEventData(created));
    return created;
  });
  if (replayed) return refund;
  ctx.logger.info('refund created', {
    refundId: refund.id,
    paymentId: refund.paymentId,
    amount: refund.amount,
  });
  return refund;
};
