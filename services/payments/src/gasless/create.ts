import { randomUUID } from 'node:crypto';
import {
  EventTypes,
  baseUnitsToDecimal,
  type CreateGaslessPaymentBody,
  type GaslessCheck,
  type GaslessQuote,
  type NetworkFeeBearer,
  type PaymentAuthorizationReceivedData,
} from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, isUniqueViolation, notFound } from '@stablepay/platform';
import { linkSessionByAuthorization } from '../checkout/link-payment.js';
import type { PaymentsContext } from '../context.js';
import { FEE_QUOTE_USES_KEY, insertFeeQuoteUse } from '../fee-quote/fee-quotes-repo.js';
import { findMerchantByPublicId } from '../merchants/merchants-repo.js';
import { insertPaymentIfNew, type NewPaymentRow } from '../payments/payments-repo.js';
import type { CheckoutSessionRecord, MerchantRecord, PaymentRecord } from '../records.js';
import { claimPayerAllowance, findAuthorizedPayment, requirePayerAllowance } from './gasless-repo.js';
import { payableSession, placeGasless, type GaslessPlacement } from './placement.js';
import { feeBearerOf, gasPricesOn, tokenDomainOf } from './quote.js';
import { authorizationProblems, expectedAuthorization, quoteProblems, refuseAll } from './rules.js';
import { relayGasFee } from './terms.js';

export interface CreateGaslessResult {
  created: boolean;
  payment: PaymentRecord;
}

/** What the payment was accepted on: where it goes, what it owes and the fees, and who bears them. */
interface AcceptedTerms {
  at: GaslessPlacement;
  session: CheckoutSessionRecord | null;
  amount: string;
  networkFee: string;
  cctpFee: string;
  feeBearer: NetworkFeeBearer;
}

/**
 * POST /payments/create-gasless. The same authorization again (chain, payer, nonce) answers its
 * payment (200) whatever the rules say now (its quote is spent, its window may have closed). A new
 * one must pass every rule here, then the relay's own check on the chain (eth_call), whose refusal
 * is the caller's answer; nothing is stored or sent before. The payment, the quote's use, the
 * session link and payment.authorization.received then commit together or not at all; the unique
 * key on (chain, payer, nonce) decides between concurrent requests with one authorization.
 */
export const createGaslessPayment = async (
  ctx: PaymentsContext,
  body: CreateGaslessPaymentBody,
): Promise<CreateGaslessResult> => {
  const merchant = await findMerchantByPublicId(ctx.db, body.merchantId);
  if (!merchant) throw notFound('Merchant');
  const auth = body.authorization;
  const known = await findAuthorizedPayment(ctx.db, merchant.merchantId, body.chainId, auth);
  if (known) return { created: false, payment: known };
  const terms = await acceptTerms(ctx, merchant, body);
  await requirePayerAllowance(ctx.db, auth.from, ctx.gasless.payerLimitPerMinute);
  const check = await ctx.gasless.relay.check({
    merchantId: merchant.merchantId,
    chainId: body.chainId,
    token: body.token,
    destinationChainId: terms.at.destinationChainId,
    authorization: auth,
  });
  if (!body.quote) terms.networkFee = await checkedNetworkFee(ctx, terms.at, check);
  const inserted = await insertGaslessPayment(ctx, merchant, body, terms);
  if (inserted) return { created: true, payment: inserted };
  const winner = await findAuthorizedPayment(ctx.db, merchant.merchantId, body.chainId, auth);
  if (winner) return { created: false, payment: winner };
  throw conflict('The authorization is already being recorded; try again');
};

/** Every rule of the quote, the session and the authorization, before anyone else is asked. */
const acceptTerms = async (
  ctx: PaymentsContext,
  merchant: MerchantRecord,
  body: CreateGaslessPaymentBody,
): Promise<AcceptedTerms> => {
  const at = placeGasless(ctx, merchant, body);
  const session = body.sessionId ? await payableSession(ctx, merchant, body.sessionId, body.token) : null;
  const quote = body.quote;
  if (quote) refuseAll(quoteProblems(ctx, body, quote, session));
  else if (feeBearerOf(ctx, merchant) === 'customer' || session?.amount == null) {
    // What the customer owes beyond the amount, and the intent's nonce, come from a quote only.
    throw new AppError('validation', 'Body validation failed', [
      fieldDetail('quote', 'A quote is required: ask GET /payments/gasless-quote first', 'quote_required'),
    ]);
  }
  const domain = quote ? quote.domain : await tokenDomainOf(ctx, at.chainId, body.token);
  const expected = expectedAuthorization(merchant, at, quote, session, domain);
  refuseAll(authorizationProblems(ctx.now().getTime(), body.authorization, expected));
  return {
    at,
    session,
    amount: quote ? quote.amount : session!.amount!,
    networkFee: quote ? quote.networkFee : '0.000000',
    cctpFee: quote ? quote.cctpFee : '0.000000',
    feeBearer: quote ? quote.feeBearer : feeBearerOf(ctx, merchant),
  };
};

/** Without a quote the merchant bears the fee: the relay's own estimate, priced now. */
const checkedNetworkFee = async (
  ctx: PaymentsContext,
  at: GaslessPlacement,
  check: GaslessCheck,
): Promise<string> => {
  const prices = await gasPricesOn(ctx, at.sourceChain);
  return baseUnitsToDecimal(
    relayGasFee(BigInt(check.gasUnits), { ...prices, gasPriceWei: check.gasPriceWei }),
  );
};

const gaslessRow = (
  merchant: MerchantRecord,
  body: CreateGaslessPaymentBody,
  t: AcceptedTerms,
): NewPaymentRow => {
  const auth = { ...body.authorization, nonce: body.authorization.nonce.toLowerCase() };
  return {
    id: randomUUID(),
    merchant_id: merchant.merchantId,
    // No transaction yet: the relay's, once sent (chain.payment.relayed), then the verified one.
    tx_hash: '',
    amount: t.amount,
    expected_amount: baseUnitsToDecimal(BigInt(auth.value)),
    currency: body.token,
    status: 'pending',
    from_address: auth.from,
    to_address: t.at.merchantWallet,
    source_chain: t.at.sourceChain,
    source_chain_id: t.at.chainId,
    destination_chain: t.at.destinationChain,
    destination_chain_id: t.at.destinationChainId,
    is_cross_chain: t.at.isCrossChain,
    bridge_provider: t.at.isCrossChain ? 'cctp_gasless' : null,
    burn_tx_hash: null,
    mint_tx_hash: null,
    fee_quote: null,
    customer_email: body.customerEmail,
    customer_language: body.language ?? null,
    reference: body.reference ?? null,
    description: body.description ?? null,
    metadata: JSON.stringify(body.metadata ?? {}),
    funding: 'authorization',
    signed_authorization: JSON.stringify(auth),
    authorization_nonce: auth.nonce,
    network_fee: t.networkFee,
    cctp_fee: t.cctpFee,
    fee_bearer: t.feeBearer,
  };
};

/** Spends the quote on this payment, in the payment's transaction: one quote, one payment. */
const spendQuote = async (
  trx: Parameters<typeof insertFeeQuoteUse>[0],
  quote: GaslessQuote,
  paymentId: string,
) => {
  try {
    await insertFeeQuoteUse(trx, {
      signature: quote.signature.toLowerCase(),
      payment_id: paymentId,
      valid_until: new Date(quote.expiresAt),
    });
  } catch (err) {
    if (isUniqueViolation(err, FEE_QUOTE_USES_KEY)) {
      throw conflict('Quote already used', [
        fieldDetail('quote', 'This quote has already paid for another payment', 'quote_used'),
      ]);
    }
    throw err;
  }
};

const receivedData = (
  p: PaymentRecord,
  body: CreateGaslessPaymentBody,
  t: AcceptedTerms,
  sessionCreatedAt: Date | null,
): PaymentAuthorizationReceivedData => ({
  paymentId: p.id,
  merchantId: p.merchantId,
  chainId: p.sourceChainId,
  sourceChain: p.sourceChain,
  currency: p.currency,
  amount: p.amount,
  toAddress: p.toAddress,
  isCrossChain: p.isCrossChain,
  destinationChainId: p.destinationChainId,
  authorization: p.gasless!.authorization,
  networkFee: t.networkFee,
  cctpFee: t.cctpFee,
  feeBearer: t.feeBearer,
  sessionId: body.sessionId ?? null,
  sessionCreatedAt: sessionCreatedAt?.toISOString() ?? null,
  createdAt: p.createdAt.toISOString(),
});

/** Undefined when the authorization is already recorded (a concurrent request won). */
const insertGaslessPayment = async (
  ctx: PaymentsContext,
  merchant: MerchantRecord,
  body: CreateGaslessPaymentBody,
  t: AcceptedTerms,
): Promise<PaymentRecord | undefined> => {
  try {
    return await ctx.db.transaction(async (trx) => {
      const inserted = await insertPaymentIfNew(trx, gaslessRow(merchant, body, t));
      if (!inserted) return undefined;
      await claimPayerAllowance(trx, body.authorization.from, ctx.gasless.payerLimitPerMinute);
      if (body.quote) await spendQuote(trx, body.quote, inserted.id);
      const sessionCreatedAt = body.sessionId
        ? await linkSessionByAuthorization(trx, body.sessionId, inserted)
        : null;
      const data = receivedData(inserted, body, t, sessionCreatedAt);
      await ctx.writeEvent(trx, EventTypes.PaymentAuthorizationReceived, inserted.merchantId, data);
      return { ...inserted, sessionId: body.sessionId ?? null };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'payments_session_key'))
      throw conflict('Checkout session already has a payment');
    throw err;
  }
};
