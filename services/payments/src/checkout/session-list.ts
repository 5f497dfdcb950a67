import type { CheckoutSessionListQuery } from '@stablepay/contracts';
import { findPaymentsByIds, listMerchantSessions } from './session-list-repo.js';
import type { PaymentsContext } from '../context.js';
import { sessionUrl } from './sessions.js';
import type { CheckoutSessionRecord, PaymentRecord } from '../records.js';

export interface ListedSession {
  session: CheckoutSessionRecord;
  payment: PaymentRecord | null;
  url: string;
}

/**
 * The merchant's checkout sessions, newest first. A session past its expiry that the sweeper has
 * not reached yet is shown expired, as GET /checkout/sessions/:id would show it.
 */
export const listCheckoutSessions = async (
  ctx: PaymentsContext,
  merchantId: string,
  query: CheckoutSessionListQuery,
): Promise<{ sessions: ListedSession[]; total: number }> => {
  const { sessions, total } = await listMerchantSessions(ctx.db, merchantId, query);
  const linked = sessions.flatMap((s) => (s.paymentId ? [s.paymentId] : []));
  const payments = await findPaymentsByIds(ctx.db, linked);
  const now = Date.now();
  return {
    total,
    sessions: sessions.map((s) => {
      const overdue = s.status === 'open' && s.paymentId === null && s.expiresAt.getTime() <= now;
      return {
        session: overdue ? { ...s, status: 'expired' } : s,
        payment: s.paymentId ? (payments.get(s.paymentId) ?? null) : null,
        url: sessionUrl(ctx, s.id),
      };
    }),
  };
};
