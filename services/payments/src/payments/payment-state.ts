import type { Knex } from 'knex';
import {
  EventTypes,
  baseUnitsToDecimal,
  decimalToBaseUnits,
  type PaymentCompletedData,
  type PaymentStatus,
} from '@stablepay/contracts';
import { refusalError, type TransitionOptions, type TransitionOutcome } from '@stablepay/platform';
import { releaseSession } from '../checkout/sessions-repo.js';
import { settleSessionIn } from '../checkout/session-settlement.js';
import type { PaymentsContext } from '../context.js';
import type { PaymentRecord } from '../records.js';
import type { PaymentTransition } from './payment-machine.js';

export interface TransitionResult {
  payment: PaymentRecord;
  /** false when the payment already was in the target status (a repeated request) */
  changed: boolean;
}

/**
 * One guarded transition with its events. Repeating a transition that already happened returns
 * the payment unchanged; any other refused move is a conflict (a missing payment a 404).
 */
export const transitionPayment = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  id: string,
  name: PaymentTransition,
  options: TransitionOptions<PaymentStatus, PaymentRecord> = {},
): Promise<TransitionResult> => resultOf(await ctx.payments.apply(trx, id, name, options));

const resultOf = (outcome: TransitionOutcome<PaymentStatus, PaymentRecord>): TransitionResult => {
  if (outcome.applied) return { payment: outcome.record, changed: true };
  if (outcome.refusal.kind === 'already') return { payment: outcome.refusal.current, changed: false };
  throw refusalError(outcome.refusal);
};

/**
 * What arrived beyond the payment's amount: received − amount for a completed payment whose
 * received amount is known ("0.000000" when exact), null otherwise. A gasless payment's customer
 * authorised the amount plus the fees they bear (expected_amount): those fees are no surplus.
 */
export const surplusOf = (p: PaymentRecord): string | null => {
  if (p.status !== 'completed' || p.receivedAmount === null) return null;
  const due = p.funding === 'authorization' && p.expectedAmount !== null ? p.expectedAmount : p.amount;
  const surplus = decimalToBaseUnits(p.receivedAmount) - decimalToBaseUnits(due);
  return baseUnitsToDecimal(surplus > 0n ? surplus : 0n);
};

/** The payment part of payment.completed / payment.failed (the webhook's data plus the merchant). */
const paymentEventData = (p: PaymentRecord) => ({
  payment_id: p.id,
  merchant_id: p.merchantId,
  amount: p.amount,
  currency: p.currency,
  status: p.status === 'completed' ? ('completed' as const) : ('failed' as const),
  tx_hash: p.txHash,
  from_address: p.fromAddress,
  to_address: p.toAddress,
  source_chain: p.sourceChain,
  destination_chain: p.destinationChain,
  is_cross_chain: p.isCrossChain,
  ...(p.isCrossChain && p.merchantTransferTxHash
    ? { merchant_transfer_tx_hash: p.merchantTransferTxHash }
    : {}),
  customer_email: p.customerEmail,
  reference: p.reference,
  metadata: p.metadata,
  received_amount: p.receivedAmount,
  surplus_amount: surplusOf(p),
  cctp_fee_amount: p.cctpFeeAmount,
});

export interface CompletionFacts {
  /** amount observed on-chain, decimal string */
  receivedAmount?: string;
  /** cross-chain: amount burned − amount received, decimal string */
  cctpFeeAmount?: string;
  mintTxHash?: string;
  merchantTransferTxHash?: string;
  /** the verified transfer's block time */
  minedAt?: Date;
  /**
   * The verified transaction: a gasless payment takes it (whoever sent it, it is the one that used
   * the authorization); a transfer payment keeps the hash it was reported with.
   */
  txHash?: string;
}

/**
 * Funds arrived: the payment completes, its checkout session (if any) completes with it, and
 * payment.completed (+ checkout.session.completed) leave through the outbox in the same commit.
 */
export const completePayment = (
  ctx: PaymentsContext,
  id: string,
  facts: CompletionFacts = {},
): Promise<TransitionResult> => ctx.db.transaction((trx) => completePaymentIn(ctx, trx, id, facts));

const completionPatch = (trx: Knex.Transaction, facts: CompletionFacts): Record<string, unknown> => ({
  completed_at: trx.fn.now(),
  ...(facts.receivedAmount !== undefined ? { received_amount: facts.receivedAmount } : {}),
  ...(facts.cctpFeeAmount !== undefined ? { cctp_fee_amount: facts.cctpFeeAmount } : {}),
  ...(facts.mintTxHash !== undefined ? { mint_tx_hash: facts.mintTxHash.toLowerCase() } : {}),
  ...(facts.merchantTransferTxHash !== undefined
    ? { merchant_transfer_tx_hash: facts.merchantTransferTxHash }
    : {}),
  ...(facts.minedAt !== undefined ? { mined_at: facts.minedAt } : {}),
  ...(facts.txHash !== undefined
    ? {
        tx_hash: trx.raw(`case when funding = 'authorization' then ? else tx_hash end`, [
          facts.txHash.toLowerCase(),
        ]),
      }
    : {}),
});

/** completePayment inside the caller's transaction (an event handler's inbox transaction). */
export const completePaymentIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  id: string,
  facts: CompletionFacts = {},
): Promise<TransitionResult> => {
  const received = facts.receivedAmount;
  const outcome = await ctx.payments.apply(trx, id, 'complete', {
    patch: completionPatch(trx, facts),
    // The chain decides: a payment is complete only when at least its amount arrived. The guarded
    // UPDATE checks it itself, so the payment is read again only when it did not complete.
    when: received === undefined ? undefined : (q) => q.whereRaw('amount <= ?::numeric', [received]),
    events: (p) => {
      const data: PaymentCompletedData = {
        ...paymentEventData(p),
        completed_at: (p.completedAt ?? p.updatedAt).toISOString(),
        created_at: p.createdAt.toISOString(),
        ...(p.customerLanguage && { customer_language: p.customerLanguage }),
      };
      return { type: EventTypes.PaymentCompleted, merchantId: p.merchantId, data };
    },
  });
  if (!outcome.applied && outcome.refusal.kind === 'condition') {
    // Short of the amount: a verdict that says otherwise (one reached before the rule was the
    // chain-watcher's) fails the payment instead.
    return failPaymentIn(ctx, trx, id, 'underpaid', {
      receivedAmount: received,
      cctpFeeAmount: facts.cctpFeeAmount,
      detail: `received ${received}, the payment is for ${outcome.refusal.current.amount}`,
    });
  }
  const result = resultOf(outcome);
  if (result.changed) await settleSessionIn(ctx, trx, result.payment);
  return result;
};

export interface FailureFacts {
  receivedAmount?: string | null;
  cctpFeeAmount?: string;
  /** A sentence for operators; `reason` stays one of the documented codes. */
  detail?: string;
}

/**
 * The payment failed (reverted, underpaid, attestation never came): payment.failed goes out, and a
 * linked session that is still open is released so the customer can try again before it expires.
 */
export const failPayment = (
  ctx: PaymentsContext,
  id: string,
  reason: string,
  facts: FailureFacts = {},
): Promise<TransitionResult> => ctx.db.transaction((trx) => failPaymentIn(ctx, trx, id, reason, facts));

/** failPayment inside the caller's transaction. */
export const failPaymentIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  id: string,
  reason: string,
  facts: FailureFacts = {},
): Promise<TransitionResult> => {
  const patch: Record<string, unknown> = { failure_reason: reason };
  if (facts.receivedAmount != null) patch.received_amount = facts.receivedAmount;
  if (facts.cctpFeeAmount !== undefined) patch.cctp_fee_amount = facts.cctpFeeAmount;
  if (facts.detail !== undefined) patch.failure_detail = facts.detail.slice(0, 1000);
  const result = await transitionPayment(ctx, trx, id, 'fail', {
    patch,
    events: (p) => ({
      type: EventTypes.PaymentFailed,
      merchantId: p.merchantId,
      data: { ...paymentEventData(p), failure_reason: reason },
    }),
  });
  const p = result.payment;
  if (result.changed && p.sessionId) await releaseSession(trx, p.sessionId, p.id);
  return result;
};
