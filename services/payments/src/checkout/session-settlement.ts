import type { Knex } from 'knex';
import { EventTypes, decimalToBaseUnits } from '@stablepay/contracts';
import type { PaymentsContext } from '../context.js';
import { PAYMENTS } from '../db/tables.js';
import type { PaymentRecord } from '../records.js';
import { releaseSession, sessionCreatedAt } from './sessions-repo.js';

/**
 * False only for a session payment claimed by its QR amount (expected amount above the amount, see
 * session-link.ts) whose transfer did not move exactly that.
 */
const deliveredQrAmount = (p: PaymentRecord): boolean =>
  p.isCrossChain ||
  p.expectedAmount === null ||
  decimalToBaseUnits(p.expectedAmount) === decimalToBaseUnits(p.amount) ||
  (p.receivedAmount !== null &&
    decimalToBaseUnits(p.receivedAmount) === decimalToBaseUnits(p.expectedAmount));

/**
 * True when the payment's transfer was mined before its session was created (to the second, as
 * block times go). The chain-watcher refuses such a transfer when the session came with the report;
 * this catches a session linked to an already recorded payment afterwards.
 */
export const predatesSession = async (trx: Knex.Transaction, p: PaymentRecord): Promise<boolean> => {
  if (!p.sessionId || !p.minedAt) return false;
  const createdAt = await sessionCreatedAt(trx, p.sessionId);
  if (!createdAt) return false;
  return Math.floor(createdAt.getTime() / 1000) > Math.floor(p.minedAt.getTime() / 1000);
};

/**
 * A completed payment's checkout session: completed with it (checkout.session.completed in the same
 * transaction), or released when the payment claimed it by a QR amount it did not deliver exactly.
 */
export const settleSessionIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  p: PaymentRecord,
): Promise<void> => {
  if (!p.sessionId) return;
  if (!deliveredQrAmount(p) || (await predatesSession(trx, p))) {
    // A session claimed by its QR amount is paid only by exactly that amount (session-link.ts), and
    // no session is paid by a transfer mined before it existed: anything else was a transfer made
    // for something else, so the session is free again for its own.
    await releaseSession(trx, p.sessionId, p.id);
    await trx(PAYMENTS).where({ id: p.id }).update({ session_id: null });
    return;
  }
  // Only the session this payment holds completes; a session already settled stays as it is.
  await ctx.sessions.apply(trx, p.sessionId, 'complete', {
    when: (q) => q.where({ payment_id: p.id }),
    patch: { completed_at: trx.fn.now() },
    events: (session) => ({
      type: EventTypes.CheckoutSessionCompleted,
      merchantId: p.merchantId,
      data: {
        sessionId: session.id,
        paymentId: p.id,
        merchantId: p.merchantId,
        amount: session.amount ?? p.amount,
        currency: session.currency,
        completedAt: (session.completedAt ?? session.updatedAt).toISOString(),
      },
    }),
  });
};
