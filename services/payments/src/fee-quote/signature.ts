import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { CctpFeeQuote } from '@stablepay/contracts';

export type UnsignedQuote = Omit<CctpFeeQuote, 'signature'>;

/** Names the format, so a signature made for anything else under the same key never verifies here. */
const CANONICAL_TAG = 'stablepay.cctp-fee-quote.v2';

/**
 * The text a quote's signature covers: every field except `signature`, in a fixed order, as one JSON
 * array (numbers in their JSON text, the shortest that reads back as the same number).
 * Field order and nesting of the object a client sends back do not matter; values do.
 */
export const canonicalQuote = (q: UnsignedQuote): string =>
  JSON.stringify([
    CANONICAL_TAG,
    q.productPrice,
    q.amountToBurn,
    q.feeGas,
    q.feeCircle,
    q.feeTotal,
    q.totalUserPays,
    q.merchantReceives,
    q.destinationChain,
    q.validUntil,
    q.validForSeconds,
    q.breakdown.gasEstimateUSD,
    q.breakdown.gasWithBuffer,
    q.breakdown.minGasFee,
    q.breakdown.bufferPercent,
    q.quoteId,
  ]);

const hmac = (key: KeyObject, quote: UnsignedQuote): Buffer =>
  createHmac('sha256', key).update(canonicalQuote(quote), 'utf8').digest();

/** HMAC-SHA256 of the canonical form, lower-case hex. */
export const signQuote = (key: KeyObject, quote: UnsignedQuote): CctpFeeQuote => ({
  ...quote,
  signature: hmac(key, quote).toString('hex'),
});

/** Whether `quote.signature` is ours for exactly these values; compared in constant time. */
export const isGenuineQuote = (key: KeyObject, quote: CctpFeeQuote): boolean => {
  const { signature, ...fields } = quote;
  const given = Buffer.from(signature, 'hex');
  const expected = hmac(key, fields);
  return given.length === expected.length && timingSafeEqual(given, expected);
};
