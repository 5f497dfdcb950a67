import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { GaslessQuote } from '@stablepay/contracts';

export type UnsignedGaslessQuote = Omit<GaslessQuote, 'signature'>;

/** Names the format: a cross-chain fee quote's signature, made with the same key, never verifies here. */
const CANONICAL_TAG = 'stablepay.gasless-quote.v1';

/**
 * The text a gasless quote's signature covers: every field except `signature`, in a fixed order, as
 * one JSON array. The order and casing of the object a client sends back do not matter; values do
 * (addresses and the nonce compare in lower case, as they are the same whatever a wallet's casing).
 */
export const canonicalGaslessQuote = (q: UnsignedGaslessQuote): string =>
  JSON.stringify([
    CANONICAL_TAG,
    q.quoteId,
    q.merchantId,
    q.sessionId,
    q.chainId,
    q.token,
    q.destinationChainId,
    q.amount,
    q.networkFee,
    q.cctpFee,
    q.feeBearer,
    q.total,
    q.authorization.to.toLowerCase(),
    q.authorization.value,
    q.authorization.nonce.toLowerCase(),
    q.authorization.validBefore,
    q.domain.name,
    q.domain.version,
    q.domain.chainId,
    q.domain.verifyingContract.toLowerCase(),
    q.expiresAt,
  ]);

const hmac = (key: KeyObject, quote: UnsignedGaslessQuote): Buffer =>
  createHmac('sha256', key).update(canonicalGaslessQuote(quote), 'utf8').digest();

/** HMAC-SHA256 of the canonical form, lower-case hex. */
export const signGaslessQuote = (key: KeyObject, quote: UnsignedGaslessQuote): GaslessQuote => ({
  ...quote,
  signature: hmac(key, quote).toString('hex'),
});

/** Whether `quote.signature` is ours for exactly these values; compared in constant time. */
export const isGenuineGaslessQuote = (key: KeyObject, quote: GaslessQuote): boolean => {
  const { signature, ...fields } = quote;
  const given = Buffer.from(signature, 'hex');
  const expected = hmac(key, fields);
  return given.length === expected.length && timingSafeEqual(given, expected);
};
