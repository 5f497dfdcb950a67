/*
 * EIP-3009 `TransferWithAuthorization`, as USDC and EURC (Circle's FiatToken v2) define it: what a
 * customer signs to pay without gas of their own, and what the relay submits. It lives here once so
 * that the checkout page, the payments service and the chain-watcher sign, check and send the same
 * structure. Browser-safe: no Node module and no import at all.
 */

/** The token's EIP-712 domain: its name and version as the contract reports them, on its chain. */
export interface TokenDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: string;
}

/** The signed struct's fields, in their signed order (FiatToken's TRANSFER_WITH_AUTHORIZATION_TYPEHASH). */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};

/** An authorization's values: `value` in the token's base units, the window in unix seconds. */
export interface TransferAuthorizationMessage {
  from: string;
  to: string;
  value: bigint;
  validAfter: number;
  validBefore: number;
  /** 32 bytes, 0x-prefixed hex */
  nonce: string;
}

/** The struct's values, exactly its fields (a caller's extra properties are not signed). */
export const transferAuthorizationMessage = (
  m: TransferAuthorizationMessage,
): TransferAuthorizationMessage => ({
  from: m.from,
  to: m.to,
  value: m.value,
  validAfter: m.validAfter,
  validBefore: m.validBefore,
  nonce: m.nonce,
});

/** The full eth_signTypedData_v4 document a wallet signs (integers as decimal strings, as JSON needs). */
export const transferAuthorizationTypedData = (domain: TokenDomain, m: TransferAuthorizationMessage) => ({
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    ...TRANSFER_WITH_AUTHORIZATION_TYPES,
  },
  primaryType: 'TransferWithAuthorization' as const,
  domain,
  message: {
    ...transferAuthorizationMessage(m),
    value: m.value.toString(),
    validAfter: String(m.validAfter),
    validBefore: String(m.validBefore),
  },
});

/** The longest an authorization may stay valid: a signature should not outlive the customer's intent. */
export const GASLESS_MAX_VALIDITY_SECONDS = 3600;
