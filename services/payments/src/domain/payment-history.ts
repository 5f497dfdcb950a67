import type { PaymentStatusChange } from '@stablepay/contracts';
import { listStatusChanges } from '../db/status-changes-repo.js';
import type { PaymentsContext } from './context.js';
import { getMerchantPayment } from './payment-queries.js';
import type { PaymentRecord } from './records.js';

export interface PaymentWithHistory {
  payment: PaymentRecord;
  history: PaymentStatusChange[];
}

/**
 * A payment is created `pending`; every later status is a row its transition wrote in the same
 * statement as the move (a note of facts in the status it is already in is not one).
 */
export const merchantPaymentWithHistory = async (
  ctx: PaymentsContext,
  merchantId: string,
  id: string,
): Promise<PaymentWithHistory> => {
  const payment = await getMerchantPayment(ctx, merchantId, id);
  const changes = await listStatusChanges(ctx.db, payment.id);
  return {
    payment,
    history: [
      { status: 'pending', at: payment.createdAt.toISOString() },
      ...changes.map((c) => ({ status: c.status, at: c.changedAt.toISOString() })),
    ],
  };
};
