import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  EventTypes,
  baseUnitsToDecimal,
  decimalToBaseUnits,
  type ChainPaymentRejectedData,
  type ChainTopUpRejectedData,
  type ChainTopUpVerifiedData,
} from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, notFound, type Logger } from '@stablepay/platform';
import { PAYMENTS } from '../db/migrations.js';
import { findPayment, transitionPaymentRow } from '../payments/payments-repo.js';
import { lockSession } from './sessions-repo.js';
import {
  decideTopUp,
  findTopUpByTxHash,
  hasPendingTopUp,
  insertTopUp,
  lockOverdueTopUpPayments,
  lockPayment,
  type TopUpRecord,
} from './top-ups-repo.js';
import { writeEvent, type PaymentsContext } from '../context.js';
import { completePaymentIn, failPaymentIn } from '../payments/payment-state.js';
import type { PaymentRecord } from '../records.js';

/*
 * Top-ups. A same-chain payment linked to a checkout session that arrived short does not fail: it
 * stays `pending` with what arrived, and the customer may send the rest from the same address until
 * the session expires (the window: the session's expires_at, which the merchant chose). Every
 * transaction the customer reports is verified by the chain-watcher like the first; the payment
 * completes when the verified transfers reach its amount, or fails `underpaid` with all that
 * arrived when the window closes short (a top-up reported in time is waited for).
 */

const units = (d: string): bigint => decimalToBaseUnits(d);

/**
 * Payments that may wait for a top-up: same-chain, linked to a session, held to their amount (a
 * QR-tagged payment must move its exact tagged amount in one transfer, see session-link.ts).
 */
const mayAwaitTopUp = (p: PaymentRecord): boolean =>
  !p.isCrossChain &&
  p.sessionId !== null &&
  (p.expectedAmount === null || units(p.expectedAmount) === units(p.amount));

/** 409: the transaction is another payment's top-up (whichever report won the unique index). */
const reportedElsewhere = () =>
  conflict('This transaction was already reported for another payment', [
    fieldDetail('txHash', 'The transaction was already reported for another payment', 'tx_already_reported'),
  ]);

export const isAwaitingTopUp = (p: PaymentRecord): boolean =>
  p.status === 'pending' && p.awaitingTopUpUntil !== null;

/** What is still missing of an awaiting payment, as a decimal string; null for any other payment. */
export const amountDue = (p: PaymentRecord): string | null => {
  if (!isAwaitingTopUp(p)) return null;
  const due = units(p.amount) - units(p.receivedAmount ?? '0');
  return baseUnitsToDecimal(due > 0n ? due : 0n);
};

/**
 * The chain-watcher's rejection of a payment's transaction. An underpayment of an open session's
 * payment, with money from the payer, waits for a top-up until the session expires; any other
 * rejection fails the payment as before.
 */
export const applyPaymentRejectionIn = async (
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
        const waiting = await transitionPaymentRow(trx, p.id, ['pending'], 'pending', {
          received_amount: data.receivedAmount,
          awaiting_top_up_until: locked.session.expiresAt,
        });
        if (waiting) return;
      }
    }
  }
  await failPaymentIn(trx, data.paymentId, data.reason, {
    receivedAmount: data.receivedAmount,
    detail: data.detail,
  });
};

export interface ReportedTopUp {
  topUp: TopUpRecord;
  created: boolean;
}

const noTopUpAwaited = () =>
  conflict('This checkout session has no payment awaiting a top-up', [
    fieldDetail('id', 'The session has no payment awaiting a top-up', 'no_top_up_awaited'),
  ]);

/**
 * POST /checkout/sessions/:id/top-ups. Records the customer's transaction for the session's
 * awaiting payment and asks the chain-watcher to verify it (payment.top_up.reported in the same
 * commit). Idempotent on the transaction: the same hash for the same payment answers the first
 * top-up; a hash already counted elsewhere (another payment's top-up, the payment's own first
 * transfer) is a conflict.
 */
export const reportTopUp = async (
  ctx: PaymentsContext,
  sessionId: string,
  txHash: string,
): Promise<ReportedTopUp> => {
  const hash = txHash.toLowerCase();
  const result = await ctx.db.transaction(async (trx): Promise<ReportedTopUp> => {
    const locked = await lockSession(trx, sessionId);
    if (!locked) throw notFound('Checkout session');
    const { session } = locked;
    const known = await findTopUpByTxHash(trx, hash);
    if (known) {
      if (known.paymentId === session.paymentId) return { topUp: known, created: false };
      throw reportedElsewhere();
    }
    const payment = session.paymentId ? await findPayment(trx, session.paymentId) : undefined;
    if (!payment || !isAwaitingTopUp(payment) || session.status !== 'open') throw noTopUpAwaited();
    if (payment.awaitingTopUpUntil!.getTime() <= Date.now() || locked.pastExpiry) {
      throw conflict('The top-up window of this checkout session has closed', [
        fieldDetail('id', 'The top-up window closed when the session expired', 'top_up_window_closed'),
      ]);
    }
    if (payment.txHash.toLowerCase() === hash) {
      throw new AppError('validation', 'Body validation failed', [
        fieldDetail('txHash', "This is the payment's own transaction, already counted", 'tx_already_counted'),
      ]);
    }
    const topUp = await insertTopUp(trx, {
      id: randomUUID(),
      paymentId: payment.id,
      merchantId: payment.merchantId,
      txHash: hash,
    });
    // The session lock makes a concurrent report of the same hash for this session wait; a
    // report of it for another session may still win the unique index: answer as it stands.
    if (!topUp) {
      const winner = await findTopUpByTxHash(trx, hash);
      if (winner?.paymentId === payment.id) return { topUp: winner, created: false };
      throw reportedElsewhere();
    }
    await writeEvent(trx, EventTypes.PaymentTopUpReported, payment.merchantId, {
      topUpId: topUp.id,
      paymentId: payment.id,
      merchantId: payment.merchantId,
      txHash: hash,
      currency: payment.currency,
      chainId: payment.sourceChainId,
      sourceChain: payment.sourceChain,
      fromAddress: payment.fromAddress,
      toAddress: payment.toAddress,
      sessionCreatedAt: session.createdAt.toISOString(),
      reportedAt: topUp.createdAt.toISOString(),
    });
    return { topUp, created: true };
  });
  if (result.created) ctx.eventsCommitted();
  return result;
};

/**
 * Closes the window of an awaiting payment that can wait no more: short of its amount, past its
 * window, and with no reported top-up still being checked. It fails `underpaid` with everything
 * that arrived (refundable; its session is released and expires). True when it failed.
 */
const closeIfOverdue = async (trx: Knex.Transaction, p: PaymentRecord): Promise<boolean> => {
  if (!isAwaitingTopUp(p) || p.awaitingTopUpUntil!.getTime() > Date.now()) return false;
  if (await hasPendingTopUp(trx, p.id)) return false;
  await failUnderpaid(trx, p);
  return true;
};

const failUnderpaid = async (trx: Knex.Transaction, p: PaymentRecord): Promise<void> => {
  await failPaymentIn(trx, p.id, 'underpaid', {
    receivedAmount: p.receivedAmount,
    detail: `received ${p.receivedAmount ?? '0.000000'} ${p.currency} by the end of the top-up window, the payment is for ${p.amount}`,
  });
};

/** A verified top-up adds what it moved; the payment completes once the total reaches its amount. */
export const applyTopUpVerifiedIn = async (
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
    await transitionPaymentRow(trx, p.id, ['pending'], 'pending', { awaiting_top_up_until: null });
    await completePaymentIn(trx, p.id, { receivedAmount: total });
    return;
  }
  const noted = await transitionPaymentRow(trx, p.id, ['pending'], 'pending', { received_amount: total });
  if (noted) await closeIfOverdue(trx, noted);
};

/** A rejected top-up changes nothing but itself, unless it was what the closed window waited for. */
export const applyTopUpRejectedIn = async (
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
  if (topUp) await closeIfOverdue(trx, p);
};

/**
 * Fails every payment whose top-up window closed short (one session's, or a batch), in the
 * caller's transaction, before the sessions are expired: failing releases each session, which
 * then expires with the others. Returns how many failed.
 */
export const closeOverdueTopUpsIn = async (
  trx: Knex.Transaction,
  opts: { sessionId?: string; limit: number },
): Promise<number> => {
  const overdue = await lockOverdueTopUpPayments(trx, opts);
  for (const p of overdue) await failUnderpaid(trx, p);
  return overdue.length;
};
