import { randomUUID } from 'node:crypto';
import {
  chainById,
  type BlockchainName,
  type CreatePublicPaymentBody,
  type ErrorDetail,
} from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { feeQuoteProblems } from '../fee-quote/redeem.js';
import type { MerchantRecord, PaymentRecord } from '../records.js';
import type { NewPaymentRow } from './payments-repo.js';

export interface Placement {
  sourceChain: BlockchainName;
  destinationChain: BlockchainName | null;
  destinationChainId: number | null;
}

/** Rules that need the merchant and the chain list; every broken one is reported at once. */
export const checkAgainstMerchant = (
  ctx: PaymentsContext,
  body: CreatePublicPaymentBody,
  merchant: MerchantRecord,
): Placement => {
  const details: ErrorDetail[] = [];
  const crossChain = body.isCrossChain === true;
  if (!merchant.acceptedCurrencies.includes(body.token)) {
    details.push(
      fieldDetail('token', `This merchant does not accept ${body.token}`, 'currency_not_accepted'),
    );
  } else if (crossChain && body.token === 'EURC') {
    details.push(fieldDetail('token', 'EURC payments are same-chain only', 'cross_chain_unsupported'));
  }
  const sourceChain = chainById(ctx.chains, body.chainId)?.name;
  if (!sourceChain)
    details.push(fieldDetail('chainId', `Unsupported chain id ${body.chainId}`, 'unknown_chain'));
  let destinationChain: BlockchainName | null = null;
  let destinationChainId: number | null = null;
  if (crossChain) {
    if (body.destinationChainId !== undefined) {
      destinationChainId = body.destinationChainId;
      destinationChain = chainById(ctx.chains, body.destinationChainId)?.name ?? null;
      if (!destinationChain) {
        details.push(
          fieldDetail(
            'destinationChainId',
            `Unsupported chain id ${body.destinationChainId}`,
            'unknown_chain',
          ),
        );
      }
    } else {
      destinationChainId = merchant.wallet?.chainId ?? null;
      destinationChain = merchant.wallet?.blockchain ?? merchant.blockchain;
    }
  }
  if (merchant.wallet && merchant.wallet.address.toLowerCase() !== body.toAddress.toLowerCase()) {
    details.push(fieldDetail('toAddress', "toAddress is not the merchant's wallet", 'wrong_recipient'));
  }
  if (body.feeQuote) {
    // The quote must be for where the merchant is paid, and for where this payment says it settles.
    const settlesOn = [merchant.wallet?.blockchain ?? merchant.blockchain];
    if (destinationChain) settlesOn.push(destinationChain);
    details.push(...feeQuoteProblems(ctx, body, body.feeQuote, settlesOn));
  }
  if (details.length > 0 || !sourceChain)
    throw new AppError('validation', 'Payment validation failed', details);
  return { sourceChain, destinationChain, destinationChainId };
};

export const newPaymentRow = (
  body: CreatePublicPaymentBody,
  merchant: MerchantRecord,
  at: Placement,
): NewPaymentRow => {
  const crossChain = body.isCrossChain === true;
  return {
    id: randomUUID(),
    merchant_id: merchant.merchantId,
    tx_hash: body.txHash.toLowerCase(),
    amount: body.amount,
    expected_amount: body.expectedAmount ?? null,
    currency: body.token,
    // Every flow starts pending; the chain-watcher's verification moves it on.
    status: 'pending',
    from_address: body.fromAddress,
    to_address: body.toAddress,
    source_chain: at.sourceChain,
    source_chain_id: body.chainId,
    destination_chain: at.destinationChain,
    destination_chain_id: at.destinationChainId,
    is_cross_chain: crossChain,
    bridge_provider: crossChain ? (body.feeQuote ? 'cctp_relayer' : 'bridge_kit') : null,
    burn_tx_hash: crossChain ? (body.bridgeKit?.burnTxHash ?? body.txHash.toLowerCase()) : null,
    mint_tx_hash: body.bridgeKit?.mintTxHash ?? null,
    fee_quote: body.feeQuote ? JSON.stringify(body.feeQuote) : null,
    customer_email: body.customerEmail,
    customer_language: body.language ?? null,
    reference: body.reference ?? null,
    description: body.description ?? null,
    metadata: JSON.stringify(body.metadata ?? {}),
  };
};

/** payment.created for a new payment, as its consumers read it. */
export const paymentCreatedData = (
  inserted: PaymentRecord,
  body: CreatePublicPaymentBody,
  sessionCreatedAt: Date | null,
) => ({
  paymentId: inserted.id,
  merchantId: inserted.merchantId,
  txHash: inserted.txHash,
  amount: inserted.amount,
  expectedAmount: inserted.expectedAmount,
  currency: inserted.currency,
  chainId: inserted.sourceChainId,
  sourceChain: inserted.sourceChain,
  fromAddress: inserted.fromAddress,
  toAddress: inserted.toAddress,
  isCrossChain: inserted.isCrossChain,
  bridgeKit: body.bridgeKit ?? null,
  feeQuote: body.feeQuote ?? null,
  destinationChainId: inserted.destinationChainId,
  sessionId: body.sessionId ?? null,
  sessionCreatedAt: sessionCreatedAt?.toISOString() ?? null,
  createdAt: inserted.createdAt.toISOString(),
});
