import {
  baseUnitsToDecimal,
  decimalToBaseUnits,
  type PaymentStatusChange,
  type PaymentTransfer,
} from '@stablepay/contracts';
import { listStatusChanges } from './status-changes-repo.js';
import { listTopUps } from '../checkout/top-ups-repo.js';
import type { PaymentsContext } from '../context.js';
import { getMerchantPayment } from './payment-queries.js';
import type { PaymentRecord } from '../records.js';

export interface PaymentWithHistory {
  payment: PaymentRecord;
  history: PaymentStatusChange[];
  /** the payment's own transfer, then each reported top-up, oldest first */
  transfers: PaymentTransfer[];
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
  const topUps = await listTopUps(ctx.db, payment.id);
  // received_amount is the sum of the first transfer and the verified top-ups.
  const toppedUp = topUps.reduce((sum, t) => sum + decimalToBaseUnits(t.receivedAmount ?? '0'), 0n);
  const first =
    payment.receivedAmount === null ? null : decimalToBaseUnits(payment.receivedAmount) - toppedUp;
  const firstStatus = payment.status === 'completed' || first !== null ? 'verified' : 'pending';
  return {
    payment,
    transfers: [
      {
        tx_hash: payment.txHash,
        amount: first === null ? null : baseUnitsToDecimal(first),
        kind: 'payment',
        status: payment.status === 'failed' && first === null ? 'rejected' : firstStatus,
        block_number: null,
      },
      ...topUps.map((t): PaymentTransfer => ({
        tx_hash: t.txHash,
        amount: t.receivedAmount,
        kind: 'top_up',
        status: t.status,
        block_number: t.blockNumber,
      })),
    ],
    history: [
      { status: 'pending', at: payment.createdAt.toISOString() },
      ...changes.map((c) => ({ status: c.status, at: c.changedAt.toISOString() })),
    ],
  };
};
