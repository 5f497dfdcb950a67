import { EventTypes, type CreatePublicPaymentBody } from '@stablepay/contracts';
import { buildEvent, conflict, isUniqueViolation, notFound } from '@stablepay/platform';
import { linkSession } from '../checkout/link-payment.js';
import type { PaymentsContext } from '../context.js';
import { requireGenuineQuote, spendFeeQuote } from '../fee-quote/redeem.js';
import { findMerchantByPublicId } from '../merchants/merchants-repo.js';
import type { MerchantRecord } from '../records.js';
import {
  answerKnown,
  completedElsewhere,
  recordedPayment,
  resubmitted,
  type CreatePaymentResult,
} from './known-payments.js';
import {
  findPaymentByTxHash,
  insertPaymentIfNew,
  insertPaymentWithEvent,
  type NewPaymentRow,
  type ReportOutcome,
} from './payments-repo.js';
import { checkAgainstMerchant, newPaymentRow, paymentCreatedData, type Placement } from './placement.js';

export type { CreatePaymentResult } from './known-payments.js';

/** A refusal or a write judged on a remembered reading of the merchant: judged again on a fresh one. */
const JUDGE_AGAIN = Symbol('judge again');

/** One reading of the merchant; `version` when that reading is a remembered one. */
interface MerchantReading {
  merchant: MerchantRecord;
  version?: string;
}

/** A report the merchant's rules accepted on one reading, with the payment row it would insert. */
interface AcceptedReport extends MerchantReading {
  body: CreatePublicPaymentBody;
  row: NewPaymentRow;
}

/**
 * POST /payments/create-public. Idempotent on txHash per merchant: a known hash is answered from
 * its payment whatever the merchant's settings, the session or the fee quote say now. A report the
 * chain refuted (REFUTED_SQL) owns nothing: a new report of its hash is a new payment. A hash that
 * completed another merchant's payment is a 409. The insert itself decides
 * whether the hash is new (ON CONFLICT DO NOTHING), so a concurrent request with the same hash ends
 * up answered from the winner's payment, and the hash is looked up only when the insert did not
 * happen or a rule refused the report. A fee quote must be genuine, valid and match the payment,
 * and is spent in the payment's transaction (one quote, one payment). A new payment, its session
 * link and payment.created commit together or not at all.
 *
 * The common report (no session, no fee quote) is judged first on the merchant as this replica last
 * read it, and written only if the merchant's row is still that version; a refusal, or a merchant
 * changed since, is judged again on a fresh read, so the answer is the one a fresh read gives.
 */
export const createPublicPayment = async (
  ctx: PaymentsContext,
  body: CreatePublicPaymentBody,
): Promise<CreatePaymentResult> => {
  const plain = !body.sessionId && !body.feeQuote;
  const remembered = plain ? ctx.merchantCache.get(body.merchantId) : undefined;
  if (remembered) {
    const answer = await report(ctx, body, remembered);
    if (answer !== JUDGE_AGAIN) return answer;
  }
  const merchant = plain
    ? (await ctx.merchantCache.read(ctx.db, body.merchantId))?.merchant
    : await findMerchantByPublicId(ctx.db, body.merchantId);
  if (!merchant) throw notFound('Merchant');
  const answer = await report(ctx, body, { merchant });
  if (answer === JUDGE_AGAIN) throw new Error('a report judged on a fresh read was sent back');
  return answer;
};

/** One report judged on one reading of the merchant. */
const report = async (
  ctx: PaymentsContext,
  body: CreatePublicPaymentBody,
  { merchant, version }: MerchantReading,
): Promise<CreatePaymentResult | typeof JUDGE_AGAIN> => {
  let placement: Placement;
  try {
    if (body.feeQuote) requireGenuineQuote(ctx, body.feeQuote);
    placement = checkAgainstMerchant(ctx, body, merchant);
  } catch (err) {
    if (version !== undefined) return JUDGE_AGAIN;
    const known = await findPaymentByTxHash(ctx.db, body.txHash, merchant.merchantId);
    if (known) return answerKnown(ctx, body, known, merchant);
    const spent = await completedElsewhere(ctx, body.txHash, merchant);
    if (spent) return resubmitted(spent, merchant);
    throw err;
  }
  const accepted: AcceptedReport = { body, merchant, version, row: newPaymentRow(body, merchant, placement) };
  const outcome =
    !body.sessionId && !body.feeQuote
      ? await insertPlainPayment(ctx, accepted)
      : await insertLinkedPayment(ctx, accepted);
  if (outcome.merchantChanged) return JUDGE_AGAIN;
  if (outcome.completedElsewhere) return resubmitted(outcome.completedElsewhere, merchant);
  if (outcome.inserted) return { created: true, payment: outcome.inserted };
  return answerKnown(ctx, body, await recordedPayment(ctx, body.txHash, merchant.merchantId), merchant);
};

/**
 * The common report: the check that another merchant's payment has not spent the transaction, the
 * payment and payment.created, in one statement with no transaction to open.
 */
const insertPlainPayment = async (
  ctx: PaymentsContext,
  { body, row, version }: AcceptedReport,
): Promise<ReportOutcome> => {
  const outcome = await insertPaymentWithEvent(
    ctx.db,
    row,
    (p) =>
      buildEvent({
        type: EventTypes.PaymentCreated,
        producer: 'payments',
        merchantId: p.merchantId,
        data: paymentCreatedData(p, body, null),
      }),
    version,
  );
  if (outcome.inserted) ctx.outboxWritten(ctx.db);
  return outcome;
};

/**
 * A payment that spends a fee quote or claims a checkout session, unless another merchant's payment
 * spent the transaction: the insert, the quote's use, the session link and payment.created in one
 * transaction. Nothing inserted when the tx_hash is already recorded.
 */
const insertLinkedPayment = async (
  ctx: PaymentsContext,
  { body, row, merchant }: AcceptedReport,
): Promise<ReportOutcome> => {
  const spent = await completedElsewhere(ctx, body.txHash, merchant);
  if (spent) return { completedElsewhere: spent };
  try {
    const inserted = await ctx.db.transaction(async (trx) => {
      const inserted = await insertPaymentIfNew(trx, row);
      if (!inserted) return undefined;
      if (body.feeQuote) await spendFeeQuote(trx, body.feeQuote, inserted.id);
      const sessionCreatedAt = body.sessionId ? await linkSession(trx, body, inserted) : null;
      const data = paymentCreatedData(inserted, body, sessionCreatedAt);
      await ctx.writeEvent(trx, EventTypes.PaymentCreated, inserted.merchantId, data);
      return { ...inserted, sessionId: body.sessionId ?? null };
    });
    return { inserted };
  } catch (err) {
    // Belt and braces behind the session lock: the partial unique index on payments.session_id.
    if (isUniqueViolation(err, 'payments_session_key'))
      throw conflict('Checkout session already has a payment');
    throw err;
  }
};
