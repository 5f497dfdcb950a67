import { decimalToBaseUnits, type CreatePublicPaymentBody } from '@stablepay/contracts';
import { conflict, fieldDetail } from '@stablepay/platform';
import { linkSession } from '../checkout/link-payment.js';
import { predatesSession, settleSessionIn } from '../checkout/session-settlement.js';
import type { PaymentsContext } from '../context.js';
import { PAYMENTS } from '../db/tables.js';
import type { MerchantRecord, PaymentRecord } from '../records.js';
import { findPaymentByTxHash, setPaymentCustomer } from './payments-repo.js';

export interface CreatePaymentResult {
  /** false: the txHash was already known and `payment` is the existing one */
  created: boolean;
  payment: PaymentRecord;
}

/**
 * A txHash is one payment. Its resubmission is answered from the payment already recorded, whatever
 * the merchant's settings or the session say now; only another merchant cannot claim it.
 */
export const resubmitted = (existing: PaymentRecord, merchant: MerchantRecord): CreatePaymentResult => {
  if (existing.merchantId !== merchant.merchantId) {
    throw conflict('Transaction already recorded for another merchant', [
      fieldDetail('txHash', 'This transaction is already recorded', 'tx_already_recorded'),
    ]);
  }
  return { created: false, payment: existing };
};

/**
 * A transaction someone already recorded without a session (a stranger reporting it first, or the
 * customer's own earlier report) may still claim its session, by the same rules as a new payment,
 * when the sender and the amount are the recorded ones. Otherwise a stranger's session-less report
 * would keep the customer's session unpaid.
 */
const claimsLater = (known: PaymentRecord, merchantId: string, body: CreatePublicPaymentBody) =>
  known.merchantId === merchantId &&
  known.sessionId === null &&
  (known.status === 'pending' || known.status === 'completed') &&
  known.fromAddress.toLowerCase() === body.fromAddress.toLowerCase() &&
  decimalToBaseUnits(known.amount) === decimalToBaseUnits(body.amount);

const linkRecorded = async (
  ctx: PaymentsContext,
  body: CreatePublicPaymentBody,
  known: PaymentRecord,
): Promise<CreatePaymentResult> => {
  const sessionId = body.sessionId!;
  const linked = await ctx.db.transaction(async (trx) => {
    // Locked, so a completion racing with this link either sees the session or is seen here.
    await trx(PAYMENTS).where({ id: known.id }).forUpdate().first();
    const fresh = await findPaymentByTxHash(trx, body.txHash, known.merchantId);
    if (!fresh || !claimsLater(fresh, known.merchantId, body)) return fresh;
    await linkSession(trx, body, fresh);
    // The session's claimant, not whoever reported the transfer first, is the customer on record.
    const customer = {
      customerEmail: body.customerEmail,
      customerLanguage: body.language ?? null,
      reference: body.reference ?? null,
      description: body.description ?? null,
      metadata: body.metadata ?? {},
    };
    await setPaymentCustomer(trx, fresh.id, customer);
    const payment = { ...fresh, ...customer, sessionId };
    if (await predatesSession(trx, payment)) {
      throw conflict('The transfer was made before the checkout session', [
        fieldDetail(
          'txHash',
          'The transfer was mined before the checkout session was created',
          'session_mismatch',
        ),
      ]);
    }
    if (payment.status === 'completed') await settleSessionIn(ctx, trx, payment);
    return payment;
  });
  return { created: false, payment: linked ?? known };
};

/** A txHash already recorded: linked to its session when the report may claim one, else answered as is. */
export const answerKnown = (
  ctx: PaymentsContext,
  body: CreatePublicPaymentBody,
  known: PaymentRecord,
  merchant: MerchantRecord,
): Promise<CreatePaymentResult> | CreatePaymentResult =>
  body.sessionId && claimsLater(known, merchant.merchantId, body)
    ? linkRecorded(ctx, body, known)
    : resubmitted(known, merchant);

/**
 * A transaction that completed another merchant's payment is spent. One still pending elsewhere is
 * no reason to refuse: the report becomes a payment of its own, and the chain decides which of them
 * the transfer pays (only the one whose merchant wallet received it can be verified, and a
 * transaction is claimed by one payment).
 */
export const completedElsewhere = async (
  ctx: PaymentsContext,
  txHash: string,
  merchant: MerchantRecord,
): Promise<PaymentRecord | undefined> => {
  const found = await findPaymentByTxHash(ctx.db, txHash);
  return found && found.merchantId !== merchant.merchantId && found.status === 'completed'
    ? found
    : undefined;
};

export const recordedPayment = async (
  ctx: PaymentsContext,
  txHash: string,
  merchantId: string,
): Promise<PaymentRecord> => {
  const existing = await findPaymentByTxHash(ctx.db, txHash, merchantId);
  if (!existing) throw new Error(`payment with tx_hash ${txHash} vanished`);
  return existing;
};
