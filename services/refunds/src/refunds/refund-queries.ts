import type { RefundListQuery } from '@stablepay/contracts';
import { notFound } from '@stablepay/platform';
import { findPayment } from '../payments/payments-repo.js';
import { findRefund, listRefunds } from './refunds-repo.js';
import type { RefundsContext } from '../context.js';
import type { RefundablePayment } from '../payments/refundable-payment.js';
import type { RefundRecord } from './records.js';

/** Another merchant's refund is not found, never forbidden. */
export const getMerchantRefund = async (
  ctx: RefundsContext,
  merchantId: string,
  id: string,
): Promise<{ refund: RefundRecord; payment: RefundablePayment }> => {
  const refund = await findRefund(ctx.db, id, merchantId);
  if (!refund) throw notFound('Refund');
  const payment = await findPayment(ctx.db, refund.paymentId, merchantId);
  // The projection row is referenced by a foreign key; it cannot be missing.
  if (!payment) throw new Error(`payment ${refund.paymentId} of refund ${id} is not projected`);
  return { refund, payment };
};

export interface RefundPage {
  refunds: RefundRecord[];
  total: number;
  limit: number;
  offset: number;
}

export const listMerchantRefunds = async (
  ctx: RefundsContext,
  merchantId: string,
  q: RefundListQuery,
): Promise<RefundPage> => {
  const { refunds, total } = await listRefunds(ctx.db, { merchantId, ...q });
  return { refunds, total, limit: q.limit, offset: q.offset };
};
