import { TypedDataEncoder, Wallet, type BaseWallet } from 'ethers';
import {
  CHECKOUT_PROOF_DOMAIN,
  CHECKOUT_PROOF_TYPES,
  PaymentAmountInput,
  decimalToBaseUnits,
} from '@stablepay/contracts';

/**
 * What the checkout page does before paying a session: the paying wallet signs the EIP-712 proof.
 * A body with a sessionId (and no proof yet) gets `fromAddress` = the wallet and its `sessionProof`;
 * any other body is returned as it is.
 */
export const proveSession = <T extends Record<string, unknown>>(
  body: T,
  wallet: BaseWallet = Wallet.createRandom(),
  overrides: Record<string, unknown> = {},
): T => {
  if (typeof body.sessionId !== 'string' || body.sessionProof !== undefined) return body;
  const message = {
    sessionId: body.sessionId,
    merchantId: body.merchantId,
    payer: wallet.address,
    recipient: body.toAddress,
    token: body.token,
    amount: decimalToBaseUnits(PaymentAmountInput.parse(body.amount)),
    sourceChainId: body.chainId,
    ...overrides,
  };
  const digest = TypedDataEncoder.hash(
    { ...CHECKOUT_PROOF_DOMAIN, chainId: body.chainId as number },
    CHECKOUT_PROOF_TYPES,
    message,
  );
  return { ...body, fromAddress: wallet.address, sessionProof: wallet.signingKey.sign(digest).serialized };
};
