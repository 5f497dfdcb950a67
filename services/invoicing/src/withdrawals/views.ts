import type { Withdrawal } from '@stablepay/contracts';
import type { WithdrawalRecord } from './records.js';

/** The record → the response view, listing exactly its fields. */
export const toWithdrawalView = (w: WithdrawalRecord): Withdrawal => ({
  id: w.id,
  amount: w.grossAmount,
  fee: w.feeAmount,
  net_amount: w.netAmount,
  currency: w.currency,
  blockchain: w.blockchain,
  destination_address: w.destinationAddress,
  status: w.status,
  tx_hash: w.net.txHash,
  fee_tx_hash: w.fee.txHash,
  failure_reason: w.failureReason,
  invoice_id: w.invoiceId,
  created_at: w.createdAt.toISOString(),
  completed_at: w.completedAt?.toISOString() ?? null,
});
