import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  EventTypes,
  chainById,
  decimalToBaseUnits,
  type BlockchainName,
  type CreatePublicPaymentBody,
  type ErrorDetail,
} from '@stablepay/contracts';
import {
  AppError,
  buildEvent,
  conflict,
  fieldDetail,
  isUniqueViolation,
  notFound,
} from '@stablepay/platform';
import { findMerchantByPublicId } from '../merchants/merchants-repo.js';
import {
  findPaymentByTxHash,
  insertPaymentIfNew,
  insertPaymentWithEvent,
  setPaymentCustomer,
  setPaymentSession,
  type NewPaymentRow,
} from './payments-repo.js';
import { PAYMENTS } from '../db/migrations.js';
import { attachPayment, lockSession } from '../checkout/sessions-repo.js';
import { writeEvent, type PaymentsContext } from '../context.js';
import { feeQuoteProblems, requireGenuineQuote, spendFeeQuote } from '../fee-quote/redeem.js';
import type { MerchantRecord, PaymentRecord } from '../records.js';
import { predatesSession, settleSessionIn } from './payment-state.js';
import { requireSessionClaim } from '../checkout/session-link.js';

export interface CreatePaymentResult {
  /** false: the txHash was already known and `payment` is the existing one */
  created: boolean;
  payment: PaymentRecord;
}

interface Placement {
  sourceChain: BlockchainName;
  destinationChain: BlockchainName | null;
  destinationChainId: number | null;
}

/** Rules that need the merchant and the chain list; every broken one is reported at once. */
const checkAgainstMerchant = (
  ctx: PaymentsContext,
  body: CreatePublicPaymentBody,
  merchant: MerchantRecord,
): Placement => {
  const details: ErrorDetail[] = [];
  const crossChain = body.isCrossChain === true;
  if (!merchant.acceptedCurrencies.includes(body.token)) {
    details.push(
      fieldDetail('token', `This merchant does not accept ${body.token}`, 'currency_not_accepted'),
    );
  } else if (crossChain && body.token === 'EURC') {
    details.push(fieldDetail('token', 'EURC payments are same-chain only', 'cross_chain_unsupported'));
  }
  const sourceChain = chainById(ctx.chains, body.chainId)?.name;
  if (!sourceChain)
    details.push(fieldDetail('chainId', `Unsupported chain id ${body.chainId}`, 'unknown_chain'));
  let destinationChain: BlockchainName | null = null;
  let destinationChainId: number | null = null;
  if (crossChain) {
    if (body.destinationChainId !== undefined) {
      destinationChainId = body.destinationChainId;
      destinationChain = chainById(ctx.chains, body.destinationChainId)?.name ?? null;
      if (!destinationChain) {
        details.push(
          fieldDetail(
            'destinationChainId',
            `Unsupported chain id ${body.destinationChainId}`,
            'unknown_chain',
          ),
        );
      }
    } else {
      destinationChainId = merchant.wallet?.chainId ?? null;
      destinationChain = merchant.wallet?.blockchain ?? merchant.blockchain;
    }
  }
  if (merchant.wallet && merchant.wallet.address.toLowerCase() !== body.toAddress.toLowerCase()) {
    details.push(fieldDetail('toAddress', "toAddress is not the merchant's wallet", 'wrong_recipient'));
  }
  if (body.feeQuote) {
    // The quote must be for where the merchant is paid, and for where this payment says it settles.
    const settlesOn = [merchant.wallet?.blockchain ?? merchant.blockchain];
    if (destinationChain) settlesOn.push(destinationChain);
    details.push(...feeQuoteProblems(ctx, body, body.feeQuote, settlesOn));
  }
  if (details.length > 0 || !sourceChain)
    throw new AppError('validation', 'Payment validation failed', details);
  return { sourceChain, destinationChain, destinationChainId };
};

const newPaymentRow = (
  body: CreatePublicPaymentBody,
  merchant: MerchantRecord,
  at: Placement,
): NewPaymentRow => {
  const crossChain = body.isCrossChain === true;
  return {
    id: randomUUID(),
    merchant_id: merchant.merchantId,
    tx_hash: body.txHash.toLowerCase(),
    amount: body.amount,
    expected_amount: body.expectedAmount ?? null,
    currency: body.token,
    // Every flow starts pending; the chain-watcher's verification moves it on.
    status: 'pending',
    from_address: body.fromAddress,
    to_address: body.toAddress,
    source_chain: at.sourceChain,
    source_chain_id: body.chainId,
    destination_chain: at.destinationChain,
    destination_chain_id: at.destinationChainId,
    is_cross_chain: crossChain,
    bridge_provider: crossChain ? (body.feeQuote ? 'cctp_relayer' : 'bridge_kit') : null,
    burn_tx_hash: crossChain ? (body.bridgeKit?.burnTxHash ?? body.txHash.toLowerCase()) : null,
    mint_tx_hash: body.bridgeKit?.mintTxHash ?? null,
    fee_quote: body.feeQuote ? JSON.stringify(body.feeQuote) : null,
    customer_email: body.customerEmail,
    reference: body.reference ?? null,
    description: body.description ?? null,
    metadata: JSON.stringify(body.metadata ?? {}),
  };
};

/**
 * Links the new payment to its checkout session. The session row is locked first, so payments
 * racing for one session take turns and every one after the first sees it taken.
 */
const linkSession = async (
  trx: Knex.Transaction,
  body: CreatePublicPaymentBody,
  payment: PaymentRecord,
): Promise<Date> => {
  const sessionId = body.sessionId!;
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
  // Who may claim the session: the paying wallet's proof, or the session's exact QR amount.
  await requireSessionClaim(trx, body, payment, session);
  if (!(await attachPayment(trx, sessionId, payment.id)))
    throw conflict('Checkout session already has a payment', used);
  await setPaymentSession(trx, payment.id, sessionId);
  return session.createdAt;
};

/**
 * A txHash is one payment. Its resubmission is answered from the payment already recorded, whatever
 * the merchant's settings or the session say now; only another merchant cannot claim it.
 */
const resubmitted = (existing: PaymentRecord, merchant: MerchantRecord): CreatePaymentResult => {
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
    if (payment.status === 'completed') await settleSessionIn(trx, payment);
    return payment;
  });
  if (linked?.status === 'completed') ctx.eventsCommitted();
  return { created: false, payment: linked ?? known };
};

/** A txHash already recorded: linked to its session when the report may claim one, else answered as is. */
const answerKnown = (
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
const completedElsewhere = async (
  ctx: PaymentsContext,
  txHash: string,
  merchant: MerchantRecord,
): Promise<PaymentRecord | undefined> => {
  const found = await findPaymentByTxHash(ctx.db, txHash);
  return found && found.merchantId !== merchant.merchantId && found.status === 'completed'
    ? found
    : undefined;
};

const recordedPayment = async (
  ctx: PaymentsContext,
  txHash: string,
  merchantId: string,
): Promise<PaymentRecord> => {
  const existing = await findPaymentByTxHash(ctx.db, txHash, merchantId);
  if (!existing) throw new Error(`payment with tx_hash ${txHash} vanished`);
  return existing;
};

/** payment.created for a new payment, as its consumers read it. */
const paymentCreatedData = (
  inserted: PaymentRecord,
  body: CreatePublicPaymentBody,
  sessionCreatedAt: Date | null,
) => ({
  paymentId: inserted.id,
  merchantId: inserted.merchantId,
  txHash: inserted.txHash,
  amount: inserted.amount,
  expectedAmount: inserted.expectedAmount,
  currency: inserted.currency,
  chainId: inserted.sourceChainId,
  sourceChain: inserted.sourceChain,
  fromAddress: inserted.fromAddress,
  toAddress: inserted.toAddress,
  isCrossChain: inserted.isCrossChain,
  bridgeKit: body.bridgeKit ?? null,
  feeQuote: body.feeQuote ?? null,
  destinationChainId: inserted.destinationChainId,
  sessionId: body.sessionId ?? null,
  sessionCreatedAt: sessionCreatedAt?.toISOString() ?? null,
  createdAt: inserted.createdAt.toISOString(),
});

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
 */
export const createPublicPayment = async (
  ctx: PaymentsContext,
  body: CreatePublicPaymentBody,
): Promise<CreatePaymentResult> => {
  const merchant = await findMerchantByPublicId(ctx.db, body.merchantId);
  if (!merchant) throw notFound('Merchant');
  let placement: Placement;
  try {
    if (body.feeQuote) requireGenuineQuote(ctx, body.feeQuote);
    placement = checkAgainstMerchant(ctx, body, merchant);
  } catch (err) {
    const known = await findPaymentByTxHash(ctx.db, body.txHash, merchant.merchantId);
    if (known) return answerKnown(ctx, body, known, merchant);
    const spent = await completedElsewhere(ctx, body.txHash, merchant);
    if (spent) return resubmitted(spent, merchant);
    throw err;
  }
  const spent = await completedElsewhere(ctx, body.txHash, merchant);
  if (spent) return resubmitted(spent, merchant);
  const row = newPaymentRow(body, merchant, placement);

  if (!body.sessionId && !body.feeQuote) {
    // The common report: the payment and payment.created in one statement, no transaction to open.
    const inserted = await insertPaymentWithEvent(ctx.db, row, (p) =>
      buildEvent({
        type: EventTypes.PaymentCreated,
        producer: 'payments',
        merchantId: merchant.merchantId,
        data: paymentCreatedData(p, body, null),
      }),
    );
    if (!inserted)
      return answerKnown(ctx, body, await recordedPayment(ctx, body.txHash, merchant.merchantId), merchant);
    ctx.eventsCommitted();
    return { created: true, payment: inserted };
  }

  let created: PaymentRecord | undefined;
  try {
    created = await ctx.db.transaction(async (trx) => {
      const inserted = await insertPaymentIfNew(trx, row);
      if (!inserted) return undefined;
      if (body.feeQuote) await spendFeeQuote(trx, body.feeQuote, inserted.id);
      const sessionCreatedAt = body.sessionId ? await linkSession(trx, body, inserted) : null;
      await writeEvent(
        trx,
        EventTypes.PaymentCreated,
        merchant.merchantId,
        paymentCreatedData(inserted, body, sessionCreatedAt),
      );
      return { ...inserted, sessionId: body.sessionId ?? null };
    });
  } catch (err) {
    // Belt and braces behind the session lock: the partial unique index on payments.session_id.
    if (isUniqueViolation(err, 'payments_session_key'))
      throw conflict('Checkout session already has a payment');
    throw err;
  }
  if (!created)
    return answerKnown(ctx, body, await recordedPayment(ctx, body.txHash, merchant.merchantId), merchant);
  ctx.eventsCommitted();
  return { created: true, payment: created };
};
