import type { WithdrawalRecord } from './records.js';

/** The fields every withdrawal.* event carries, whatever happened to the withdrawal. */
export const withdrawalEventBase = (w: WithdrawalRecord) => ({
  withdrawalId: w.id,
  merchantId: w.merchantId,
  amount: w.grossAmount,
  fee: w.feeAmount,
  netAmount: w.netAmount,
  currency: w.currency,
  blockchain: w.blockchain,
  destinationAddress: w.destinationAddress,
  treasuryAddress: w.treasuryAddress,
});
