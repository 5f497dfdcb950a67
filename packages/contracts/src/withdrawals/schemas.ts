/**
 * Withdrawals: our extension (the spec only says that a completed withdrawal produces an invoice).
 * Served by the invoicing service under /withdrawals (jwt) and /withdrawals/api/* (key).
 */
import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { Currency, DecimalString, PositiveDecimalInput } from '../shared/money.js';
import { listPage, pageParams } from '../shared/paging.js';
import { BlockchainName, EvmAddress, IsoTimestamp, TxHash, Uuid } from '../shared/scalars.js';

export const CreateWithdrawalBody = z.object({
  /** decimal string, > 0, at most 6 decimals; default: everything available to withdraw */
  amount: PositiveDecimalInput.optional(),
  /** the token to withdraw */
  currency: Currency,
  /** the merchant's chain (the only one a withdrawal can leave from); stated to be checked, never to choose */
  blockchain: BlockchainName.optional(),
  /**
   * where the net amount goes, on the merchant's chain: an address on the withdrawal address book
   * whose hold has passed (422 `destination_not_approved` / `destination_on_hold` otherwise)
   */
  destination_address: EvmAddress,
});
export type CreateWithdrawalBody = z.infer<typeof CreateWithdrawalBody>;

/**
 * requested: both transfers asked of the chain-watcher; processing: one is on-chain; completed: both
 * confirmed (an invoice is issued); failed: a transfer failed (`failure_reason` says which and why).
 */
export const WithdrawalStatus = z.enum(['requested', 'processing', 'completed', 'failed']);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

/** What a withdrawal moves and where, wherever it is shown (the withdrawal, its webhooks). */
export const withdrawalFigures = {
  /** what leaves the merchant wallet: net_amount + fee */
  amount: DecimalString,
  /** the service fee, sent to the service's treasury */
  fee: DecimalString,
  /** what the destination receives */
  net_amount: DecimalString,
  currency: Currency,
  blockchain: BlockchainName,
  destination_address: EvmAddress,
};

export const Withdrawal = z.object({
  id: Uuid,
  ...withdrawalFigures,
  status: WithdrawalStatus,
  /** the transfer of the net amount to the destination, once submitted */
  tx_hash: TxHash.nullable(),
  /** the transfer of the fee to the treasury, once submitted */
  fee_tx_hash: TxHash.nullable(),
  failure_reason: z.string().nullable(),
  /** the invoice issued when the withdrawal completed */
  invoice_id: Uuid.nullable(),
  created_at: IsoTimestamp,
  completed_at: IsoTimestamp.nullable(),
});
export type Withdrawal = z.infer<typeof Withdrawal>;

/** 201 */
export const CreateWithdrawalResponse = successEnvelope(Withdrawal);
export const WithdrawalResponse = successEnvelope(Withdrawal);

export const WithdrawalListQuery = z.object({
  status: WithdrawalStatus.optional(),
  currency: Currency.optional(),
  ...pageParams({ max: 200, default: 50 }),
});
export type WithdrawalListQuery = z.infer<typeof WithdrawalListQuery>;

/** Newest first. */
export const WithdrawalListPage = listPage('withdrawals', Withdrawal);
export type WithdrawalListPage = z.infer<typeof WithdrawalListPage>;
export const WithdrawalListResponse = successEnvelope(WithdrawalListPage);
export type WithdrawalListResponse = z.infer<typeof WithdrawalListResponse>;

export const WithdrawalIdParams = z.object({ id: Uuid });
