import { chainById, type BlockchainName, type Currency, type ErrorDetail } from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, notFound } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { findSession } from '../checkout/sessions-repo.js';
import type { CheckoutSessionRecord, MerchantRecord } from '../records.js';

/** Where a gasless payment comes from and settles, and whom it pays. */
export interface GaslessPlacement {
  sourceChain: BlockchainName;
  chainId: number;
  destinationChain: BlockchainName | null;
  destinationChainId: number | null;
  isCrossChain: boolean;
  /** the merchant wallet the payment pays (cross-chain: on the destination chain) */
  merchantWallet: string;
}

export interface GaslessRequest {
  chainId: number;
  token: Currency;
  destinationChainId?: number | null;
}

/**
 * The rules of the merchant and the deployment (a 400 naming every broken one): a chain this
 * deployment serves, a token the merchant accepts, EURC on one chain only. A destination equal to
 * the source chain is a same-chain payment.
 */
export const placeGasless = (
  ctx: PaymentsContext,
  merchant: MerchantRecord,
  req: GaslessRequest,
): GaslessPlacement => {
  const details: ErrorDetail[] = [];
  const source = chainById(ctx.chains, req.chainId);
  if (!source) details.push(fieldDetail('chainId', `Unsupported chain id ${req.chainId}`, 'unknown_chain'));
  const crossChain = req.destinationChainId != null && req.destinationChainId !== req.chainId;
  const destination = crossChain ? chainById(ctx.chains, req.destinationChainId!) : undefined;
  if (crossChain && !destination) {
    details.push(
      fieldDetail('destinationChainId', `Unsupported chain id ${req.destinationChainId}`, 'unknown_chain'),
    );
  }
  if (!merchant.acceptedCurrencies.includes(req.token)) {
    details.push(fieldDetail('token', `This merchant does not accept ${req.token}`, 'currency_not_accepted'));
  } else if (crossChain && req.token === 'EURC') {
    details.push(fieldDetail('token', 'EURC payments are same-chain only', 'cross_chain_unsupported'));
  }
  if (details.length > 0 || !source) throw new AppError('validation', 'Payment validation failed', details);
  // The projection lags the gateway by a moment: the wallet is about to be known.
  if (!merchant.wallet) throw new AppError('unavailable', "The merchant's wallet is not ready yet", [], 5);
  return {
    sourceChain: source.name,
    chainId: source.chainId,
    destinationChain: destination?.name ?? null,
    destinationChainId: destination?.chainId ?? null,
    isCrossChain: crossChain,
    merchantWallet: merchant.wallet.address,
  };
};

/**
 * The merchant's session, as long as it can still be paid: another merchant's or an unknown one is
 * a 404, a paid or expired one a 409 (as create-public answers), one in another token a 400. The
 * payment's transaction checks again under the session's lock; this spares the relay a check for
 * a session that cannot be paid.
 */
export const payableSession = async (
  ctx: PaymentsContext,
  merchant: MerchantRecord,
  sessionId: string,
  token: Currency,
): Promise<CheckoutSessionRecord> => {
  const session = await findSession(ctx.db, sessionId, merchant.merchantId);
  if (!session) throw notFound('Checkout session');
  if (session.paymentId !== null || session.status === 'complete') {
    throw conflict('Checkout session already has a payment', [
      fieldDetail('sessionId', 'The checkout session already has a payment', 'session_used'),
    ]);
  }
  if (session.status === 'expired' || session.expiresAt.getTime() <= ctx.now().getTime()) {
    throw conflict('Checkout session has expired', [
      fieldDetail('sessionId', 'The checkout session has expired', 'session_expired'),
    ]);
  }
  if (session.currency !== token) {
    throw new AppError('validation', 'Payment does not match the checkout session', [
      fieldDetail('token', `The checkout session is payable in ${session.currency}`, 'session_mismatch'),
    ]);
  }
  return session;
};
