import type { GaslessRefusalCode, TransferAuthorization } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import type { ChainRpc } from '../chain/chain-rpc.js';
import {
  encodeTransferWithAuthorization,
  tokenRefusal,
  type TransferAuthorization as TokenTransferAuthorization,
} from '../chain/fiat-token.js';
import { revertOf } from '../chain/rpc-errors.js';

/** A customer's signed authorization with its integers as integers. */
export interface SignedAuthorization extends TokenTransferAuthorization {
  signature: string;
}

/** The authorization as the API carries it (decimal strings), as the token reads it. */
export const authorizationOf = (a: TransferAuthorization): SignedAuthorization => ({
  from: getAddress(a.from),
  to: getAddress(a.to),
  value: BigInt(a.value),
  validAfter: BigInt(a.validAfter),
  validBefore: BigInt(a.validBefore),
  nonce: a.nonce.toLowerCase(),
  signature: a.signature,
});

/** transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s): what the relay sends. */
export const encodeAuthorization = (a: SignedAuthorization): string => {
  const { signature, ...auth } = a;
  return encodeTransferWithAuthorization(auth, signature);
};

/** FiatToken v2.2's own words for an authorization it refuses (Circle's wording, exactly). */
const AUTHORIZATION_REVERTS: Record<string, GaslessRefusalCode> = {
  'FiatTokenV2: invalid signature': 'authorization_signature_invalid',
  'FiatTokenV2: authorization is not yet valid': 'authorization_not_yet_valid',
  'FiatTokenV2: authorization is expired': 'authorization_expired',
};

/** The refusal a token revert means to the customer who signed. */
export const refusalOfRevert = (message: string): { code: GaslessRefusalCode; message: string } => {
  const own = AUTHORIZATION_REVERTS[message];
  if (own) return { code: own, message: `the token refuses the authorization: ${message}` };
  const refusal = tokenRefusal({ message, data: null });
  switch (refusal.kind) {
    case 'insufficient_balance':
      return {
        code: 'authorization_insufficient_balance',
        message: 'the payer holds too little of the token',
      };
    case 'authorization_spent':
      return {
        code: 'authorization_nonce_used',
        message: 'this authorization was already used or cancelled',
      };
    default:
      return {
        code: 'authorization_refused_by_token',
        message: `the token refuses the transfer: ${message}`,
      };
  }
};

/**
 * eth_call of the relay's submission, from the relay: undefined when it would pass, the refusal
 * when the token reverts. RPC failures are thrown: only a revert is the token's answer.
 */
export const simulateSubmission = async (
  rpc: ChainRpc,
  tx: { from: string; to: string; data: string },
): Promise<{ code: GaslessRefusalCode; message: string } | undefined> => {
  try {
    await rpc.call('eth_call', (p) => p.call(tx));
    return undefined;
  } catch (err) {
    const revert = revertOf(err);
    if (!revert) throw err;
    return refusalOfRevert(revert.message);
  }
};
