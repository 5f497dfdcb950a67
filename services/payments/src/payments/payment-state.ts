import type { Knex } from 'knex';
import {
  EventTypes,
  baseUnitsToDecimal,
  decimalToBaseUnits,
  type PaymentCompletedData,
  type PaymentStatus,
} from '@stablepay/contracts';
import { conflict, notFound } from '@stablepay/platform';
import { PAYMENTS } from '../db/migrations.js';
import { findPayment, recordPaymentFacts, transitionPaymentRow } from './payments-repo.js';
import { completeSessionRow, releaseSession, sessionCreatedAt } from '../checkout/sessions-repo.js';
import { writeEvent, type PaymentsContext } from '../context.js';
import type { PaymentRecord } from '../records.js';

/**
 * Where each payment status may go next. Same-chain and bridge-kit payments go from `pending`
 * straight to `completed` or `failed`; the legacy relayer flow walks
 * pending_attestation → ready_to_mint → minted_pending_transfer → completed.
 */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  pending: ['pending_attestation', 'ready_to_mint', 'completed', 'failed'],
  pending_attestation: ['ready_to_mint', 'completed', 'failed'],
  ready_to_mint: ['minted_pending_transfer', 'completed', 'failed'],
  minted_pending_transfer: ['completed', 'failed'],
  completed: [],
  failed: [],
};

/** Statuses of payments still under way: the list filter `pending` covers all of them. */
export const IN_PROGRESS_STATUSES: readonly PaymentStatus[] = [
  'pending',
  'pending_attestation',
  'ready_to_mint',
  'minted_pending_transfer',
];

export const statusesLeadingTo = (to: PaymentStatus): PaymentStatus[] =>
  (Object.keys(PAYMENT_TRANSITIONS) as PaymentStatus[]).filter((from) =>
    PAYMENT_TRANSITIONS[from].includes(to),
  );

export interface TransitionResult {
  payment: PaymentRecord;
  /** false when the payment already was in the target status (a repeated request) */
  changed: boolean;
}

/**
 * One guarded UPDATE: it succeeds only from a status that may lead to `to`. Repeating a transition
 * that already happened returns the payment unchanged; any other illegal move is a conflict.
 */
export const transitionPayment = async (
  trx: Knex.Transaction,
  id: string,
  to: PaymentStatus,
  patch: Record<string, unknown> = {},
): Promise<TransitionResult> => {
  const moved = await transitionPaymentRow(trx, id, statusesLeadingTo(to), to, patch);
  if (moved) return { payment: moved, changed: true };
  const current = await findPayment(trx, id);
  if (!current) throw notFound('Payment');
  if (current.status === to) return { payment: current, changed: false };
  throw conflict(`Payment is ${current.status} and cannot become ${to}`);
};

/**
 * What arrived beyond the payment's amount: received − amount for a completed payment whose
 * received amount is known ("0.000000" when exact), null otherwise.
 */
export const surplusOf = (p: PaymentRecord): string | null => {
  if (p.status !== 'completed' || p.receivedAmount === null) return null;
  const surplus = decimalToBaseUnits(p.receivedAmount) - decimalToBaseUnits(p.amount);
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
}

const runAndNotify = async <T>(
  ctx: PaymentsContext,
  work: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> => {
  const result = await ctx.db.transaction(work);
  ctx.eventsCommitted();
  return result;
};

/**
 * Funds arrived: the payment completes, its checkout session (if any) completes with it, and
 * payment.completed (+ checkout.session.completed) leave through the outbox in the same commit.
 */
export const completePayment = (
  ctx: PaymentsContext,
  id: string,
  facts: CompletionFacts = {},
): Promise<TransitionResult> => runAndNotify(ctx, (trx) => completePaymentIn(trx, id, facts));

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
export const settleSessionIn = async (trx: Knex.Transaction, p: PaymentRecord): Promise<void> => {
  if (p.sessionId && (!deliveredQrAmount(p) || (await predatesSession(trx, p)))) {
    // A session claimed by its QR amount is paid only by exactly that amount (session-link.ts), and
    // no session is paid by a transfer mined before it existed: anything else was a transfer made
    // for something else, so the session is free again for its own.
    await releaseSession(trx, p.sessionId, p.id);
    await trx(PAYMENTS).where({ id: p.id }).update({ session_id: null });
  } else if (p.sessionId) {
    const session = await completeSessionRow(trx, p.sessionId, p.id);
    if (session) {
      await writeEvent(trx, EventTypes.CheckoutSessionCompleted, p.merchantId, {
        sessionId: session.id,
        paymentId: p.id,
        merchantId: p.merchantId,
        amount: session.amount ?? p.amount,
        currency: session.currency,
        completedAt: (session.completedAt ?? session.updatedAt).toISOString(),
      });
    }
  }
};

/** completePayment inside the caller's transaction (an event handler's inbox transaction). */
export const completePaymentIn = async (
  trx: Knex.Transaction,
  id: string,
  facts: CompletionFacts = {},
): Promise<TransitionResult> => {
  const short = await shortOfAmount(trx, id, facts.receivedAmount);
  if (short) {
    // The chain decides: a payment is complete only when at least its amount arrived. A verdict
    // that says otherwise (one reached before the rule was the chain-watcher's) fails it instead.
    return failPaymentIn(trx, id, 'underpaid', {
      receivedAmount: facts.receivedAmount,
      cctpFeeAmount: facts.cctpFeeAmount,
      detail: `received ${facts.receivedAmount}, the payment is for ${short.amount}`,
    });
  }
  const patch: Record<string, unknown> = { completed_at: trx.fn.now() };
  if (facts.receivedAmount !== undefined) patch.received_amount = facts.receivedAmount;
  if (facts.cctpFeeAmount !== undefined) patch.cctp_fee_amount = facts.cctpFeeAmount;
  if (facts.mintTxHash !== undefined) patch.mint_tx_hash = facts.mintTxHash.toLowerCase();
  if (facts.merchantTransferTxHash !== undefined)
    patch.merchant_transfer_tx_hash = facts.merchantTransferTxHash;
  if (facts.minedAt !== undefined) patch.mined_at = facts.minedAt;
  const result = await transitionPayment(trx, id, 'completed', patch);
  if (!result.changed) return result;
  const p = result.payment;
  const completedAt = (p.completedAt ?? p.updatedAt).toISOString();
  const data: PaymentCompletedData = {
    ...paymentEventData(p),
    completed_at: completedAt,
    created_at: p.createdAt.toISOString(),
  };
  await writeEvent(trx, EventTypes.PaymentCompleted, p.merchantId, data);
  await settleSessionIn(trx, p);
  return result;
};

/** The payment, when `received` (if known) is less than its amount. */
const shortOfAmount = async (
  trx: Knex.Transaction,
  id: string,
  received: string | undefined,
): Promise<PaymentRecord | undefined> => {
  if (received === undefined) return undefined;
  const p = await findPayment(trx, id);
  if (!p || !statusesLeadingTo('completed').includes(p.status)) return undefined;
  return decimalToBaseUnits(received) < decimalToBaseUnits(p.amount) ? p : undefined;
};

/**
 * The payment failed (reverted, underpaid, attestation never came): payment.failed goes out, and a
 * linked session that is still open is released so the customer can try again before it expires.
 */
export const failPayment = (
  ctx: PaymentsContext,
  id: string,
  reason: string,
  facts: FailureFacts = {},
): Promise<TransitionResult> => runAndNotify(ctx, (trx) => failPaymentIn(trx, id, reason, facts));

export interface FailureFacts {
  receivedAmount?: string | null;
  cctpFeeAmount?: string;
  /** A sentence for operators; `reason` stays one of the documented codes. */
  detail?: string;
}

/** failPayment inside the caller's transaction. */
export const failPaymentIn = async (
  trx: Knex.Transaction,
  id: string,
  reason: string,
  facts: FailureFacts = {},
): Promise<TransitionResult> => {
  const patch: Record<string, unknown> = { failure_reason: reason };
  if (facts.receivedAmount != null) patch.received_amount = facts.receivedAmount;
  if (facts.cctpFeeAmount !== undefined) patch.cctp_fee_amount = facts.cctpFeeAmount;
  if (facts.detail !== undefined) patch.failure_detail = facts.detail.slice(0, 1000);
  const result = await transitionPayment(trx, id, 'failed', patch);
  if (!result.changed) return result;
  const p = result.payment;
  await writeEvent(trx, EventTypes.PaymentFailed, p.merchantId, {
    ...paymentEventData(p),
    failure_reason: reason,
  });
  if (p.sessionId) await releaseSession(trx, p.sessionId, p.id);
  return result;
};

/** Intermediate steps of the legacy relayer flow; they publish nothing. */
export const advanceCrossChainPayment = (
  ctx: PaymentsContext,
  id: string,
  to: 'pending_attestation' | 'ready_to_mint' | 'minted_pending_transfer',
  facts: { cctpMessageHash?: string; cctpAttestationStatus?: string; mintTxHash?: string } = {},
): Promise<TransitionResult> =>
  ctx.db.transaction((trx) => {
    const patch: Record<string, unknown> = {};
    if (facts.cctpMessageHash !== undefined) patch.cctp_message_hash = facts.cctpMessageHash;
    if (facts.cctpAttestationStatus !== undefined)
      patch.cctp_attestation_status = facts.cctpAttestationStatus;
    if (facts.mintTxHash !== undefined) patch.mint_tx_hash = facts.mintTxHash.toLowerCase();
    return transitionPayment(trx, id, to, patch);
  });

/** The legacy relayer flow's statuses before completion, in the order the flow reaches them. */
const RELAYER_PATH: readonly PaymentStatus[] = [
  'pending',
  'pending_attestation',
  'ready_to_mint',
  'minted_pending_transfer',
];

export type RelayerStatus = 'pending_attestation' | 'ready_to_mint' | 'minted_pending_transfer';

export interface RelayerStepFacts {
  cctpMessageHash?: string;
  /** the attestation API's status, mirrored for the public status view */
  cctpAttestationStatus?: string;
}

const relayerPatch = (facts: RelayerStepFacts): Record<string, unknown> => ({
  ...(facts.cctpMessageHash !== undefined ? { cctp_message_hash: facts.cctpMessageHash } : {}),
  ...(facts.cctpAttestationStatus !== undefined
    ? { cctp_attestation_status: facts.cctpAttestationStatus }
    : {}),
});

/**
 * A status passed over on the way to a later one is still what it says: a payment minted is past
 * a complete attestation.
 */
const IMPLIED: Partial<Record<PaymentStatus, Record<string, unknown>>> = {
  ready_to_mint: { cctp_attestation_status: 'complete' },
};

/**
 * A step of the legacy relayer flow as the chain-watcher reports it, in the caller's transaction.
 * The payment walks pending → pending_attestation → ready_to_mint → minted_pending_transfer one
 * guarded transition at a time, through every status on the way, so a report that overtakes an
 * earlier one (messages of one queue are handled concurrently) still leaves the payment where the
 * flow is. A report of a step the payment is past, or of a final payment, changes nothing; one of
 * the status it is in records its facts (a new attestation status). Nothing is published: the
 * webhook events are payment.completed and payment.failed.
 */
export const advanceRelayedPaymentIn = async (
  trx: Knex.Transaction,
  id: string,
  to: RelayerStatus,
  facts: RelayerStepFacts = {},
): Promise<TransitionResult> => {
  const patch = relayerPatch(facts);
  const target = RELAYER_PATH.indexOf(to);
  let payment = await findPayment(trx, id);
  if (!payment) throw notFound('Payment');
  let changed = false;
  for (;;) {
    const at = RELAYER_PATH.indexOf(payment.status);
    if (at < 0 || at > target) return { payment, changed };
    if (at === target) {
      if (changed || Object.keys(patch).length === 0) return { payment, changed };
      const noted = await transitionPaymentRow(trx, id, [to], to, patch);
      if (noted) return { payment: noted, changed: false };
    } else {
      const next = RELAYER_PATH[at + 1]!;
      const moved = await transitionPaymentRow(
        trx,
        id,
        [payment.status],
        next,
        next === to ? patch : (IMPLIED[next] ?? {}),
      );
      if (moved) {
        payment = moved;
        changed = true;
        continue;
      }
    }
    // Another transaction moved it first: look again.
    const current = await findPayment(trx, id);
    if (!current) throw notFound('Payment');
    payment = current;
  }
};

/** The relay's mint: its hash is kept whatever the status, and the payment is past ready_to_mint. */
export const recordRelayedMintIn = async (
  trx: Knex.Transaction,
  id: string,
  mintTxHash: string,
): Promise<TransitionResult> => {
  await recordPaymentFacts(trx, id, { mint_tx_hash: mintTxHash.toLowerCase() });
  return advanceRelayedPaymentIn(trx, id, 'minted_pending_transfer');
};

/**
 * The mint of a bridge-kit payment, as the chain-watcher found it. It arrives with the verdict and
 * may be applied before or after it, so it only records the hash and never moves the status.
 */
export const recordBridgeKitMintIn = async (
  trx: Knex.Transaction,
  id: string,
  mintTxHash: string,
): Promise<void> => {
  await recordPaymentFacts(trx, id, { mint_tx_hash: mintTxHash.toLowerCase() });
};
