import { verifyTypedData } from 'ethers';
import {
  GASLESS_MAX_VALIDITY_SECONDS,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  decimalToBaseUnits,
  transferAuthorizationMessage,
  type CreateGaslessPaymentBody,
  type ErrorDetail,
  type GaslessQuote,
  type TokenDomainView,
  type TransferAuthorization,
} from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import type { CheckoutSessionRecord, MerchantRecord } from '../records.js';
import type { GaslessPlacement } from './placement.js';
import { isGenuineGaslessQuote } from './quote-signature.js';
import { refused } from './quote.js';
import { gaslessNonce } from './terms.js';

/** The relay needs this long at least to have its transaction mined before the authorization lapses. */
export const MIN_REMAINING_SECONDS = 30;

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * The quote pays for this payment: ours for exactly its values (a quote that is not is refused on
 * its own: nothing else about it can be trusted enough to report), unexpired, and for this
 * merchant, session, chain, token and amount.
 */
export const quoteProblems = (
  ctx: PaymentsContext,
  body: CreateGaslessPaymentBody,
  quote: GaslessQuote,
  session: CheckoutSessionRecord | null,
): ErrorDetail[] => {
  if (!isGenuineGaslessQuote(ctx.feeQuotes.key, quote)) {
    throw refused(
      'quote.signature',
      'The quote was not issued by this service or was changed after it was issued',
      'quote_signature_invalid',
    );
  }
  const details: ErrorDetail[] = [];
  if (Date.parse(quote.expiresAt) <= ctx.now().getTime())
    details.push(fieldDetail('quote.expiresAt', 'The quote has expired; ask for a new one', 'quote_expired'));
  const mismatch = (field: string, what: string) =>
    details.push(fieldDetail(`quote.${field}`, `The quote is for another ${what}`, 'quote_mismatch'));
  if (quote.merchantId !== body.merchantId) mismatch('merchantId', 'merchant');
  if (quote.sessionId !== (body.sessionId ?? null)) mismatch('sessionId', 'checkout session');
  if (quote.chainId !== body.chainId) mismatch('chainId', 'chain');
  if (quote.token !== body.token) mismatch('token', 'token');
  // A destination equal to the source is a same-chain payment, quoted without one.
  const destination = body.destinationChainId === body.chainId ? null : (body.destinationChainId ?? null);
  if (quote.destinationChainId !== destination) mismatch('destinationChainId', 'destination chain');
  const owed = session?.amount ?? body.amount;
  if (
    owed !== undefined &&
    owed !== null &&
    decimalToBaseUnits(String(owed)) !== decimalToBaseUnits(quote.amount)
  )
    mismatch('amount', 'amount');
  return details;
};

/** What the authorization must say, as this service decided it (from the quote, or the session). */
export interface ExpectedAuthorization {
  to: string;
  value: bigint;
  nonce: string;
  /** unix seconds: the latest validBefore the session allows, if there is one */
  sessionExpiry: number | null;
  domain: TokenDomainView;
}

export const expectedAuthorization = (
  merchant: MerchantRecord,
  at: GaslessPlacement,
  quote: GaslessQuote | undefined,
  session: CheckoutSessionRecord | null,
  domain: TokenDomainView,
): ExpectedAuthorization => ({
  to: quote ? quote.authorization.to : at.merchantWallet,
  value: quote ? BigInt(quote.authorization.value) : decimalToBaseUnits(session!.amount!),
  nonce: gaslessNonce(merchant.merchantId, session?.id ?? quote!.quoteId),
  sessionExpiry: session ? Math.floor(session.expiresAt.getTime() / 1000) : null,
  domain,
});

/** Whether the signature over exactly these values recovers to `from`. */
export const signedByPayer = (domain: TokenDomainView, a: TransferAuthorization): boolean => {
  try {
    const signer = verifyTypedData(
      domain,
      TRANSFER_WITH_AUTHORIZATION_TYPES,
      transferAuthorizationMessage({
        from: a.from,
        to: a.to,
        value: BigInt(a.value),
        validAfter: Number(a.validAfter),
        validBefore: Number(a.validBefore),
        nonce: a.nonce,
      }),
      a.signature,
    );
    return same(signer, a.from);
  } catch {
    return false;
  }
};

/**
 * The authorization pays exactly this payment: the derived nonce, the expected recipient and
 * value, a window open now that the relay can still use and that ends by the session's expiry and
 * within the hour, and the payer's own signature. Every broken rule is named (422).
 */
export const authorizationProblems = (
  nowMs: number,
  a: TransferAuthorization,
  expected: ExpectedAuthorization,
): ErrorDetail[] => {
  const details: ErrorDetail[] = [];
  const at = (field: string, message: string, code: string) =>
    details.push(fieldDetail(`authorization.${field}`, message, code));
  const now = Math.floor(nowMs / 1000);
  if (!same(a.nonce, expected.nonce))
    at('nonce', 'The nonce is not the one this payment derives', 'authorization_nonce_mismatch');
  if (!same(a.to, expected.to))
    at('to', `The authorization must pay ${expected.to}`, 'authorization_recipient_mismatch');
  if (BigInt(a.value) !== expected.value)
    at('value', `The authorization must move ${expected.value} base units`, 'authorization_value_mismatch');
  const validAfter = BigInt(a.validAfter);
  const validBefore = BigInt(a.validBefore);
  if (validAfter > BigInt(now))
    at('validAfter', 'The authorization is not valid yet', 'authorization_not_yet_valid');
  if (validBefore <= BigInt(now + MIN_REMAINING_SECONDS))
    at(
      'validBefore',
      'The authorization has expired or expires too soon to be sent',
      'authorization_expired',
    );
  else if (
    validBefore > BigInt(now + GASLESS_MAX_VALIDITY_SECONDS) ||
    (expected.sessionExpiry !== null && validBefore > BigInt(expected.sessionExpiry))
  )
    at(
      'validBefore',
      'The authorization must end within the hour and by the checkout session expiry',
      'authorization_window_too_long',
    );
  if (!signedByPayer(expected.domain, a))
    at(
      'signature',
      'The signature is not the payer’s over this authorization',
      'authorization_signature_invalid',
    );
  return details;
};

export const refuseAll = (details: ErrorDetail[]): void => {
  if (details.length > 0)
    throw new AppError('unprocessable', 'The authorization cannot pay this payment', details);
};
