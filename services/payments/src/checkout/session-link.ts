import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import {
  CHECKOUT_PROOF_TYPES,
  baseUnitsToDecimal,
  checkoutProofDomain,
  decimalToBaseUnits,
  type CheckoutPaymentProof,
  type CreatePublicPaymentBody,
} from '@stablepay/contracts';
import { AppError, conflict, fieldDetail } from '@stablepay/platform';
import { verifyTypedData } from 'ethers';
import { CHECKOUT_SESSIONS } from '../db/tables.js';
import type { CheckoutSessionRecord, PaymentRecord } from '../records.js';

/*
 * Anyone watching a chain sees every transfer to a merchant's wallet, sender included. Without a
 * rule, a stranger could report a customer's transfer first, linked to a checkout session of their
 * own (an order of theirs at the same merchant), and the real customer's session would stay unpaid.
 * A payment therefore claims a session in one of two ways that a stranger cannot meet:
 *
 * 1. proof: an EIP-712 signature by `fromAddress` over the session and the payment (below). Only
 *    the paying wallet can make it; the checkout page asks for it before the transfer.
 * 2. exact QR amount, for a customer paying from a wallet the page cannot ask to sign (the QR
 *    code): the transfer carries a per-session tag in its last digits (`qrTagUnits`), the payment's
 *    expectedAmount must be the session's amount plus that tag, no other open session of the merchant
 *    may have the same tagged amount, and the payment completes the session only if exactly that
 *    amount arrived (session-settlement.ts); otherwise the payment completes without the session.
 */

/** The message a payer signs: amounts in base units, the domain's chainId the source chain's. */
export const checkoutProofMessage = (body: CreatePublicPaymentBody): CheckoutPaymentProof => ({
  sessionId: body.sessionId!,
  merchantId: body.merchantId,
  payer: body.fromAddress,
  recipient: body.toAddress,
  token: body.token,
  amount: decimalToBaseUnits(body.amount),
  sourceChainId: body.chainId,
});

/** True when `sessionProof` was signed by `fromAddress` over exactly this session and payment. */
export const sessionProofValid = (body: CreatePublicPaymentBody): boolean => {
  if (!body.sessionProof || !body.sessionId) return false;
  try {
    const signer = verifyTypedData(
      checkoutProofDomain(body.chainId),
      CHECKOUT_PROOF_TYPES,
      checkoutProofMessage(body),
      body.sessionProof,
    );
    return signer.toLowerCase() === body.fromAddress.toLowerCase();
  } catch {
    return false;
  }
};

/** 1..9999 base units (0.000001..0.009999) from the session id: the QR code's extra digits. */
export const qrTagUnits = (sessionId: string): bigint =>
  (BigInt(createHash('sha256').update(sessionId, 'utf8').digest().readUInt32BE(0)) % 9999n) + 1n;

/**
 * What a QR-path transfer for this session must move: its amount (or, for a session without one,
 * the amount the customer entered) plus the session's tag, as a decimal string.
 */
export const qrAmount = (session: Pick<CheckoutSessionRecord, 'id' | 'amount'>, entered: string): string =>
  baseUnitsToDecimal(decimalToBaseUnits(session.amount ?? entered) + qrTagUnits(session.id));

const refuse = (code: string, message: string) =>
  new AppError('validation', 'The payment cannot claim this checkout session', [
    fieldDetail(code === 'session_proof_invalid' ? 'sessionProof' : 'sessionId', message, code),
  ]);

/**
 * Decides whether this payment may claim the session (locked by the caller), by proof or by the
 * exact QR amount; throws a 400 that says which rule failed.
 */
export const requireSessionClaim = async (
  trx: Knex.Transaction,
  body: CreatePublicPaymentBody,
  payment: PaymentRecord,
  session: CheckoutSessionRecord,
): Promise<'proof' | 'qr_amount'> => {
  if (body.sessionProof !== undefined) {
    if (!sessionProofValid(body))
      throw refuse(
        'session_proof_invalid',
        'sessionProof is not a signature of fromAddress over this payment',
      );
    // A proven payment is held to the session's amount as usual; the QR tag is for unproven ones.
    if (payment.expectedAmount !== null && payment.expectedAmount !== payment.amount)
      throw refuse('session_proof_invalid', 'A proven payment has expectedAmount equal to amount');
    return 'proof';
  }
  const tagged = qrAmount(session, payment.amount);
  if (payment.isCrossChain || payment.expectedAmount !== tagged) {
    throw refuse(
      'session_proof_required',
      'Linking a session needs sessionProof, or a same-chain payment of exactly the session amount plus its QR tag',
    );
  }
  const sameAmount = (q: Knex.QueryBuilder) =>
    session.amount === null ? q.whereNull('amount') : q.where({ amount: session.amount });
  const twins = (await sameAmount(
    trx(CHECKOUT_SESSIONS)
      .select('id')
      .where({ merchant_id: session.merchantId, status: 'open', currency: session.currency })
      .whereNull('payment_id')
      .whereNot({ id: session.id }),
  )) as Array<{ id: string }>;
  if (twins.some((t) => qrTagUnits(t.id) === qrTagUnits(session.id))) {
    // Two open sessions ask for the same transfer: neither may take it without a proof.
    throw conflict('Another open session asks for the same amount', [
      fieldDetail('sessionId', 'Another open session asks for the same amount', 'session_ambiguous'),
    ]);
  }
  return 'qr_amount';
};
