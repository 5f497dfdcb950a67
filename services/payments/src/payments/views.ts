import type {
  InternalPayment,
  MerchantPaymentDetail,
  PaymentDetail,
  PaymentStatusChange,
  PaymentListItem,
  PaymentStatusView,
  PaymentTransfer,
} from '@stablepay/contracts';
import { surplusOf } from './payment-state.js';
import type { PaymentRecord } from '../records.js';

/** Payment records → the spec's response views; each view lists exactly its fields. */

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
  funding: p.funding,
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

/** The internal view the refunds service reads through when payment.completed has not reached it. */
export const toInternalPayment = (p: PaymentRecord): InternalPayment => ({
  payment_id: p.id,
  merchant_id: p.merchantId,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
  tx_hash: p.txHash,
  from_address: p.fromAddress,
  source_chain: p.sourceChain,
  destination_chain: p.destinationChain,
  is_cross_chain: p.isCrossChain,
  created_at: p.createdAt.toISOString(),
  completed_at: p.status === 'completed' ? (p.completedAt ?? p.updatedAt).toISOString() : null,
  received_amount: p.receivedAmount,
  failure_reason: p.failureReason,
  failed_at: p.status === 'failed' ? p.updatedAt.toISOString() : null,
  funding: p.funding,
});
