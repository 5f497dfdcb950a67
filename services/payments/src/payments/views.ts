import type {
  CheckoutSession,
  CheckoutSessionPayment,
  MerchantPaymentDetail,
  PaymentDetail,
  PaymentStatusChange,
  PaymentListItem,
  PaymentStatusView,
  PaymentTransfer,
  PublicCheckoutSession,
  PublicCheckoutSessionPayment,
} from '@stablepay/contracts';
import { surplusOf } from './payment-state.js';
import { amountDue, isAwaitingTopUp } from '../checkout/top-ups.js';
import type { CheckoutSessionRecord, MerchantRecord, PaymentRecord } from '../records.js';

/** Records → the spec's response views; each view lists exactly its fields. */

export const toStatusView = (p: PaymentRecord): PaymentStatusView => ({
  id: p.id,
  status: p.status,
  is_cross_chain: p.isCrossChain,
  cctp_attestation_status: p.cctpAttestationStatus,
  updated_at: p.updatedAt.toISOString(),
});

export const toListItem = (p: PaymentRecord): PaymentListItem => ({
  id: p.id,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
  tx_hash: p.txHash,
  from_address: p.fromAddress,
  to_address: p.toAddress,
  source_chain: p.sourceChain,
  is_cross_chain: p.isCrossChain,
  customer_email: p.customerEmail,
  reference: p.reference,
  metadata: p.metadata,
  created_at: p.createdAt.toISOString(),
});

export const toDetail = (
  p: PaymentRecord,
  history: PaymentStatusChange[],
  transfers: PaymentTransfer[],
): PaymentDetail => ({
  ...toListItem(p),
  expected_amount: p.expectedAmount,
  destination_chain: p.destinationChain,
  bridge_provider: p.bridgeProvider,
  updated_at: p.updatedAt.toISOString(),
  failure_reason: p.failureReason,
  cctp_attestation_status: p.cctpAttestationStatus,
  merchant_transfer_tx_hash: p.merchantTransferTxHash,
  received_amount: p.receivedAmount,
  surplus_amount: surplusOf(p),
  cctp_fee_amount: p.cctpFeeAmount,
  status_history: history,
  transfers,
});

export const toMerchantDetail = (
  p: PaymentRecord,
  history: PaymentStatusChange[],
  transfers: PaymentTransfer[],
): MerchantPaymentDetail => ({
  ...toDetail(p, history, transfers),
  description: p.description,
  checkout_session_id: p.sessionId,
  source_chain_id: p.sourceChainId,
  destination_chain_id: p.destinationChainId,
  burn_tx_hash: p.burnTxHash,
  mint_tx_hash: p.mintTxHash,
  cctp_message_hash: p.cctpMessageHash,
  fee_quote: p.feeQuote,
  completed_at: p.completedAt?.toISOString() ?? null,
});

const toSessionPayment = (p: PaymentRecord | null): CheckoutSessionPayment | null =>
  p && { id: p.id, status: p.status, tx_hash: p.txHash, amount: p.amount, is_cross_chain: p.isCrossChain };

const sessionFields = (s: CheckoutSessionRecord, p: PaymentRecord | null) => ({
  id: s.id,
  status: s.status,
  amount: s.amount,
  currency: s.currency,
  return_url: s.returnUrl,
  cancel_url: s.cancelUrl,
  payment: toSessionPayment(p),
  created_at: s.createdAt.toISOString(),
  expires_at: s.expiresAt.toISOString(),
});

export const toSessionView = (s: CheckoutSessionRecord, p: PaymentRecord | null): CheckoutSession => ({
  ...sessionFields(s, p),
  metadata: s.metadata,
});

const toPublicSessionPayment = (
  p: PaymentRecord | null,
  topUpPending: boolean,
): PublicCheckoutSessionPayment | null =>
  p && {
    ...toSessionPayment(p)!,
    from_address: p.fromAddress,
    received_amount: p.receivedAmount,
    amount_due: amountDue(p),
    top_up_until: isAwaitingTopUp(p) ? p.awaitingTopUpUntil!.toISOString() : null,
    top_up_pending: topUpPending,
  };

export const toPublicSessionView = (
  s: CheckoutSessionRecord,
  p: PaymentRecord | null,
  m: MerchantRecord,
  topUpPending = false,
): PublicCheckoutSession => ({
  ...sessionFields(s, p),
  payment: toPublicSessionPayment(p, topUpPending),
  merchant: {
    id: m.publicId,
    name: m.name,
    blockchain: m.blockchain,
    wallet_address: m.wallet?.address ?? null,
    chain_id: m.wallet?.chainId ?? null,
  },
});
