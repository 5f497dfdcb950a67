import type { Knex } from 'knex';
import {
  baseUnitsToDecimal,
  decimalToBaseUnits,
  type ChainPaymentRejectedData,
  type ChainTopUpRejectedData,
  type ChainTopUpVerifiedData,
} from '@stablepay/contracts';
import { notFound, type Logger } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { PAYMENTS } from '../db/tables.js';
import { completePaymentIn, failPaymentIn } from '../payments/payment-state.js';
import { findPayment } from '../payments/payments-repo.js';
import type { PaymentRecord } from '../records.js';
import { lockSession } from './sessions-repo.js';
import { decideTopUp, hasPendingTopUp, lockOverdueTopUpPayments, lockPayment } from './top-ups-repo.js';
import { isAwaitingTopUp, mayAwaitTopUp } from './top-ups.js';

/*
 * The chain-watcher's verdicts on a session payment's transfers, and the close of its top-up
 * window: each runs in the caller's transaction (an inbox transaction, or the expiry sweep's).
 */

const units = (d: string): bigint => decimalToBaseUnits(d);

/**
 * The chain-watcher's rejection of a payment's transaction. An underpayment of an open session's
 * payment, with money from the payer, waits for a top-up until the session expires; any other
 * rejection fails the payment as before.
 */
export const applyPaymentRejectionIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  data: ChainPaymentRejectedData,
): Promise<void> => {
  if (data.reason === 'underpaid' && data.receivedAmount !== null && units(data.receivedAmount) > 0n) {
    const p = await findPayment(trx, data.paymentId);
    if (p && p.status === 'pending' && p.awaitingTopUpUntil === null && mayAwaitTopUp(p)) {
      const locked = await lockSession(trx, p.sessionId!);
      if (
        locked &&
        !locked.pastExpiry &&
        locked.session.status === 'open' &&
        locked.session.paymentId === p.id
      ) {
        const waiting = await ctx.payments.note(trx, p.id, ['pending'], {
          received_amount: data.receivedAmount,
          awaiting_top_up_until: locked.session.expiresAt,
        });
        if (waiting) return;
      }
    }
  }
  await failPaymentIn(ctx, trx, data.paymentId, data.reason, {
    receivedAmount: data.receivedAmount,
    detail: data.detail,
  });
};

/**
 * Closes the window of an awaiting payment that can wait no more: short of its amount, past its
 * window, and with no reported top-up still being checked. It fails `underpaid` with everything
 * that arrived (refundable; its session is released and expires). True when it failed.
 */
const closeIfOverdue = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  p: PaymentRecord,
): Promise<boolean> => {
  if (!isAwaitingTopUp(p) || p.awaitingTopUpUntil!.getTime() > Date.now()) return false;
  if (await hasPendingTopUp(trx, p.id)) return false;
  await failUnderpaid(ctx, trx, p);
  return true;
};

const failUnderpaid = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  p: PaymentRecord,
): Promise<void> => {
  await failPaymentIn(ctx, trx, p.id, 'underpaid', {
    receivedAmount: p.receivedAmount,
    detail: `received ${p.receivedAmount ?? '0.000000'} ${p.currency} by the end of the top-up window, the payment is for ${p.amount}`,
  });
};

/** A verified top-up adds what it moved; the payment completes once the total reaches its amount. */
export const applyTopUpVerifiedIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  data: ChainTopUpVerifiedData,
  logger: Logger,
): Promise<void> => {
  const p = await lockPayment(trx, data.paymentId);
  if (!p) throw notFound('Payment');
  const topUp = await decideTopUp(trx, data.topUpId, {
    status: 'verified',
    receivedAmount: data.receivedAmount,
    blockNumber: data.blockNumber,
  });
  if (!topUp) return;
  const total = baseUnitsToDecimal(units(p.receivedAmount ?? '0') + units(data.receivedAmount));
  if (!isAwaitingTopUp(p)) {
    // Reports are taken only while the payment awaits one, and the window waits for them; should
    // one still be verified after the payment settled, what the chain shows arrived is recorded.
    logger.warn('verified top-up of a payment that awaits none', { paymentId: p.id, topUpId: topUp.id });
    await trx(PAYMENTS).where({ id: p.id }).update({ received_amount: total, updated_at: trx.fn.now() });
    return;
  }
  if (units(total) >= units(p.amount)) {
    await ctx.payments.note(trx, p.id, ['pending'], { awaiting_top_up_until: null });
    await completePaymentIn(ctx, trx, p.id, { receivedAmount: total });
    return;
  }
  const noted = await ctx.payments.note(trx, p.id, ['pending'], { received_amount: total });
  if (noted) await closeIfOverdue(ctx, trx, noted);
};

/** A rejected top-up changes nothing but itself, unless it was what the closed window waited for. */
export const applyTopUpRejectedIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  data: ChainTopUpRejectedData,
): Promise<void> => {
  const p = await lockPayment(trx, data.paymentId);
  if (!p) throw notFound('Payment');
  const topUp = await decideTopUp(trx, data.topUpId, {
    status: 'rejected',
    reason: data.reason,
    detail: data.detail,
  });
  if (topUp) await closeIfOverdue(ctx, trx, p);
};

/**
 * Fails every payment whose top-up window closed short (one session's, or a batch), in the
 * caller's transaction, before the sessions are expired: failing releases each session, which
 * then expires with the others. Returns how many failed.
 */
export const closeOverdueTopUpsIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  opts: { sessionId?: string; limit: number },
): Promise<number> => {
  const overdue = await lockOverdueTopUpPayments(trx, opts);
  for (const p of overdue) await failUnderpaid(ctx, trx, p);
  return overdue.length;
};
