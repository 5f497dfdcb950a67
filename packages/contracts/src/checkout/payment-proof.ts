/*
 * The payer's EIP-712 consent to one checkout session, as the checkout page asks for it and the
 * payments service checks it. It lives here once so that the two can never sign and verify
 * different structures. Browser-safe: no Node module and no import at all.
 */

/** The signing domain; each signature adds `chainId`, the id of the chain the payment is sent on. */
export const CHECKOUT_PROOF_DOMAIN = { name: 'Stablepay Checkout', version: '1' } as const;

/** The signed struct's fields, in their signed order. */
export const CHECKOUT_PROOF_TYPES = {
  CheckoutPayment: [
    { name: 'sessionId', type: 'string' },
    { name: 'merchantId', type: 'string' },
    { name: 'payer', type: 'address' },
    { name: 'recipient', type: 'address' },
    { name: 'token', type: 'string' },
    { name: 'amount', type: 'uint256' },
    { name: 'sourceChainId', type: 'uint256' },
  ],
};

/** What a payer signs: the session, who pays whom, the token, the amount in base units and the chain. */
export interface CheckoutPaymentProof {
  sessionId: string;
  merchantId: string;
  payer: string;
  recipient: string;
  token: string;
  amount: bigint;
  sourceChainId: number;
}

/** The struct's values, exactly its fields (a caller's extra properties are not signed). */
export const checkoutPaymentMessage = (p: CheckoutPaymentProof): CheckoutPaymentProof => ({
  sessionId: p.sessionId,
  merchantId: p.merchantId,
  payer: p.payer,
  recipient: p.recipient,
  token: p.token,
  amount: p.amount,
  sourceChainId: p.sourceChainId,
});

/** The domain of a proof for a payment sent on `sourceChainId`. */
export const checkoutProofDomain = (sourceChainId: number) => ({
  ...CHECKOUT_PROOF_DOMAIN,
  chainId: sourceChainId,
});

/** The full eth_signTypedData_v4 document a wallet signs (amounts as decimal strings, as JSON needs). */
export const checkoutPaymentTypedData = (p: CheckoutPaymentProof) => ({
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    ...CHECKOUT_PROOF_TYPES,
  },
  primaryType: 'CheckoutPayment' as const,
  domain: checkoutProofDomain(p.sourceChainId),
  message: { ...checkoutPaymentMessage(p), amount: p.amount.toString() },
});
