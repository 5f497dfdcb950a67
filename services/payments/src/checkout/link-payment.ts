import type { Knex } from 'knex';
import { decimalToBaseUnits, type CreatePublicPaymentBody, type ErrorDetail } from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, notFound } from '@stablepay/platform';
import { setPaymentSession } from '../payments/payments-repo.js';
import type { CheckoutSessionRecord, PaymentRecord } from '../records.js';
import { requireSessionClaim } from './session-link.js';
import { attachPayment, lockSession } from './sessions-repo.js';

/**
 * Links the new payment to its checkout session. The session row is locked first, so payments
 * racing for one session take turns and every one after the first sees it taken.
 */
export const linkSession = (
  trx: Knex.Transaction,
  body: CreatePublicPaymentBody,
  payment: PaymentRecord,
): Promise<Date> =>
  // Who may claim the session: the paying wallet's proof, or the session's exact QR amount.
  attachToSession(trx, body.sessionId!, payment, async (session) => {
    await requireSessionClaim(trx, body, payment, session);
  });

/**
 * Links a gasless payment to its session. Its claim is the authorization itself: the payer signed a
 * nonce derived from this session (checked before), which no other session's payment can use.
 */
export const linkSessionByAuthorization = (
  trx: Knex.Transaction,
  sessionId: string,
  payment: PaymentRecord,
): Promise<Date> => attachToSession(trx, sessionId, payment, async () => undefined);

/** The session is the merchant's, open, unpaid and of this payment's token and amount; then `claim` decides. */
const attachToSession = async (
  trx: Knex.Transaction,
  sessionId: string,
  payment: PaymentRecord,
  claim: (session: CheckoutSessionRecord) => Promise<void>,
): Promise<Date> => {
  const locked = await lockSession(trx, sessionId);
  if (!locked || locked.session.merchantId !== payment.merchantId) throw notFound('Checkout session');
  const { session, pastExpiry } = locked;
  const used = [fieldDetail('sessionId', 'The checkout session already has a payment', 'session_used')];
  if (session.paymentId !== null || session.status === 'complete') {
    throw conflict('Checkout session already has a payment', used);
  }
  if (session.status === 'expired' || pastExpiry) {
    throw conflict('Checkout session has expired', [
      fieldDetail('sessionId', 'The checkout session has expired', 'session_expired'),
    ]);
  }
  const details: ErrorDetail[] = [];
  if (session.currency !== payment.currency) {
    details.push(
      fieldDetail('token', `The checkout session is payable in ${session.currency}`, 'session_mismatch'),
    );
  }
  if (session.amount !== null) {
    const due = decimalToBaseUnits(session.amount);
    if (decimalToBaseUnits(payment.amount) !== due) {
      details.push(
        fieldDetail('amount', `The checkout session amount is ${session.amount}`, 'session_mismatch'),
      );
    }
    if (
      !payment.isCrossChain &&
      payment.expectedAmount !== null &&
      decimalToBaseUnits(payment.expectedAmount) < due
    ) {
      details.push(
        fieldDetail('expectedAmount', `The checkout session amount is ${session.amount}`, 'session_mismatch'),
      );
    }
  }
  if (details.length > 0)
    throw new AppError('validation', 'Payment does not match the checkout session', details);
  await claim(session);
  if (!(await attachPayment(trx, sessionId, payment.id)))
    throw conflict('Checkout session already has a payment', used);
  await setPaymentSession(trx, payment.id, sessionId);
  return session.createdAt;
};
