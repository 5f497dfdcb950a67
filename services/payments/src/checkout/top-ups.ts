import { randomUUID } from 'node:crypto';
import { EventTypes, baseUnitsToDecimal, decimalToBaseUnits } from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, notFound } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { findPayment } from '../payments/payments-repo.js';
import type { PaymentRecord } from '../records.js';
import { lockSession } from './sessions-repo.js';
import { findTopUpByTxHash, insertTopUp, type TopUpRecord } from './top-ups-repo.js';

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
export const mayAwaitTopUp = (p: PaymentRecord): boolean =>
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
export const reportTopUp = (
  ctx: PaymentsContext,
  sessionId: string,
  txHash: string,
): Promise<ReportedTopUp> => {
  const hash = txHash.toLowerCase();
  return ctx.db.transaction(async (trx): Promise<ReportedTopUp> => {
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
    await ctx.writeEvent(trx, EventTypes.PaymentTopUpReported, payment.merchantId, {
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
};
