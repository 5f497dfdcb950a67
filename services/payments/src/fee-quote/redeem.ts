import type { Knex } from 'knex';
import {
  decimalToBaseUnits,
  numberToDecimalString,
  type BlockchainName,
  type CctpFeeQuote,
  type CreatePublicPaymentBody,
  type ErrorDetail,
} from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, isUniqueViolation } from '@stablepay/platform';
import { FEE_QUOTE_USES_KEY, insertFeeQuoteUse } from './fee-quotes-repo.js';
import type { PaymentsContext } from '../context.js';
import { isGenuineQuote } from './signature.js';

/**
 * A quote that does not carry our signature for exactly its values (forged, or altered after it was
 * issued) is refused on its own: nothing else about it can be trusted enough to report.
 */
export const requireGenuineQuote = (ctx: PaymentsContext, quote: CctpFeeQuote): void => {
  if (!isGenuineQuote(ctx.feeQuotes.key, quote)) {
    throw new AppError('validation', 'Fee quote signature is invalid', [
      fieldDetail(
        'feeQuote.signature',
        'The fee quote was not issued by this service or was changed after it was issued',
        'quote_signature_invalid',
      ),
    ]);
  }
};

/** A genuine quote's amount in micro-USD; its numbers always have at most 6 decimals. */
const micro = (n: number): bigint => decimalToBaseUnits(numberToDecimalString(n));

/**
 * Whether a genuine quote pays for this payment: still valid, for the chain the merchant is paid on,
 * for the amount the merchant receives and (when given) the amount burned.
 */
export const feeQuoteProblems = (
  ctx: PaymentsContext,
  body: CreatePublicPaymentBody,
  quote: CctpFeeQuote,
  merchantChains: BlockchainName[],
): ErrorDetail[] => {
  const details: ErrorDetail[] = [];
  if (quote.validUntil * 1000 <= ctx.now().getTime()) {
    details.push(
      fieldDetail('feeQuote.validUntil', 'The fee quote has expired; ask for a new one', 'quote_expired'),
    );
  }
  const wrongChain = merchantChains.find((chain) => chain !== quote.destinationChain);
  if (wrongChain) {
    details.push(
      fieldDetail(
        'feeQuote.destinationChain',
        `The fee quote is for ${quote.destinationChain}; this payment settles on ${wrongChain}`,
        'quote_wrong_chain',
      ),
    );
  }
  if (decimalToBaseUnits(body.amount) !== micro(quote.merchantReceives)) {
    details.push(
      fieldDetail(
        'amount',
        `The fee quote is for a payment of ${quote.merchantReceives}`,
        'quote_amount_mismatch',
      ),
    );
  }
  if (
    body.expectedAmount !== undefined &&
    decimalToBaseUnits(body.expectedAmount) !== micro(quote.amountToBurn)
  ) {
    details.push(
      fieldDetail('expectedAmount', `The fee quote burns ${quote.amountToBurn}`, 'quote_amount_mismatch'),
    );
  }
  return details;
};

/**
 * Marks the quote as spent by `paymentId`, in the payment's own transaction: the unique key decides
 * between payments racing with one quote, and a refused payment leaves the quote unspent.
 */
export const spendFeeQuote = async (
  trx: Knex.Transaction,
  quote: CctpFeeQuote,
  paymentId: string,
): Promise<void> => {
  try {
    await insertFeeQuoteUse(trx, {
      signature: quote.signature.toLowerCase(),
      payment_id: paymentId,
      valid_until: new Date(quote.validUntil * 1000),
    });
  } catch (err) {
    if (isUniqueViolation(err, FEE_QUOTE_USES_KEY)) {
      throw conflict('Fee quote already used', [
        fieldDetail('feeQuote', 'This fee quote has already paid for another payment', 'quote_used'),
      ]);
    }
    throw err;
  }
};
