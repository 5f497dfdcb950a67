import { z } from 'zod';
import { Currency, DecimalString } from '../shared/money.js';
import { BlockchainName, EvmAddress, IsoTimestamp, TxHash, Uuid } from '../shared/scalars.js';

/**
 * withdrawal.requested: the withdrawal and both its transfer commands were recorded. `amount` leaves
 * the merchant wallet: `netAmount` to the destination and `fee` to the service's treasury.
 */
export const WithdrawalRequestedData = z.object({
  withdrawalId: Uuid,
  merchantId: Uuid,
  amount: DecimalString,
  fee: DecimalString,
  netAmount: DecimalString,
  currency: Currency,
  blockchain: BlockchainName,
  destinationAddress: EvmAddress,
  treasuryAddress: EvmAddress,
  requestedAt: IsoTimestamp,
});

/** withdrawal.completed: both transfers are confirmed; `txHash` is the net transfer's. */
export const WithdrawalCompletedData = WithdrawalRequestedData.omit({ requestedAt: true }).extend({
  txHash: TxHash,
  feeTxHash: TxHash,
  completedAt: IsoTimestamp,
});
export type WithdrawalCompletedData = z.infer<typeof WithdrawalCompletedData>;

/** withdrawal.failed: a transfer failed; the hashes name whatever did reach the chain. */
export const WithdrawalFailedData = WithdrawalRequestedData.omit({ requestedAt: true }).extend({
  reason: z.string(),
  txHash: TxHash.nullable(),
  feeTxHash: TxHash.nullable(),
  failedAt: IsoTimestamp,
});
export type WithdrawalFailedData = z.infer<typeof WithdrawalFailedData>;
