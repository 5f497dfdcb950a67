import type { PaymentListQuery } from '@stablepay/contracts';
import { notFound } from '@stablepay/platform';
import { findPayment, listPayments, type PaymentQuery } from './payments-repo.js';
import type { PaymentsContext } from '../context.js';
import { IN_PROGRESS_STATUSES } from './payment-machine.js';
import type { PaymentRecord } from '../records.js';

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** Public status lookup: any merchant's payment, by id alone (the caller shows only the status view). */
export const getPaymentById = async (ctx: PaymentsContext, id: string): Promise<PaymentRecord> => {
  const payment = await findPayment(ctx.db, id);
  if (!payment) throw notFound('Payment');
  return payment;
};

/** Another merchant's payment is not found, never forbidden. */
export const getMerchantPayment = async (
  ctx: PaymentsContext,
  merchantId: string,
  id: string,
): Promise<PaymentRecord> => {
  const payment = await findPayment(ctx.db, id, merchantId);
  if (!payment) throw notFound('Payment');
  return payment;
};

/**
 * The list filters as the spec states them, turned into bounds on created_at: a bare `startDate`
 * starts at 00:00Z of that day, a bare `endDate` includes its whole day, `since` is exclusive.
 * `status=pending` covers every status still under way (the cross-chain ones included).
 */
export const toPaymentQuery = (merchantId: string, q: PaymentListQuery): PaymentQuery => {
  const query: PaymentQuery = {
    merchantId,
    currency: q.currency,
    search: q.search,
    sortBy: q.sortBy,
    sortDirection: q.sortDirection,
    limit: q.limit,
    offset: q.offset,
  };
  if (q.status) query.statuses = q.status === 'pending' ? IN_PROGRESS_STATUSES : [q.status];
  if (q.startDate) {
    query.createdAtLeast = new Date(
      BARE_DATE.test(q.startDate) ? `${q.startDate}T00:00:00.000Z` : q.startDate,
    );
  }
  if (q.endDate) {
    if (BARE_DATE.test(q.endDate))
      query.createdBefore = new Date(Date.parse(`${q.endDate}T00:00:00.000Z`) + DAY_MS);
    else query.createdAtMost = new Date(q.endDate);
  }
  if (q.since) query.createdAfter = new Date(q.since);
  return query;
};

export interface PaymentPage {
  payments: PaymentRecord[];
  total: number;
  limit: number;
  offset: number;
}

export const listMerchantPayments = async (
  ctx: PaymentsContext,
  merchantId: string,
  q: PaymentListQuery,
): Promise<PaymentPage> => {
  const { payments, total } = await listPayments(ctx.db, toPaymentQuery(merchantId, q));
  return { payments, total, limit: q.limit, offset: q.offset };
};
