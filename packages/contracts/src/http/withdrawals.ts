/**
 * Withdrawals: our extension (the spec only says that a completed withdrawal produces an invoice).
 * Served by the invoicing service under /withdrawals (jwt) and /withdrawals/api/* (key).
 */
import { z } from 'zod';
import {
  BlockchainName,
  Currency,
  DecimalString,
  EvmAddress,
  IsoTimestamp,
  PageOffset,
  PositiveDecimalInput,
  Uuid,
  pageLimit,
} from '../common.js';
import { successEnvelope } from '../envelope.js';

export const CreateWithdrawalBody = z.object({
  /** decimal string, > 0, at most 6 decimals */
  amount: PositiveDecimalInput,
  currency: Currency,
  /** defaults to the merchant's chain */
  blockchain: BlockchainName.optional(),
  destination_address: EvmAddress,
});
export type CreateWithdrawalBody = z.infer<typeof CreateWithdrawalBody>;

export const WithdrawalStatus = z.enum(['pending', 'processing', 'completed', 'failed']);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

export const Withdrawal = z.object({
  id: Uuid,
  amount: DecimalString,
  currency: Currency,
  blockchain: BlockchainName,
  destination_address: z.string(),
  status: WithdrawalStatus,
  tx_hash: z.string().nullable(),
  failure_reason: z.string().nullable(),
  /** the invoice issued when the withdrawal completed */
  invoice_id: Uuid.nullable(),
  created_at: IsoTimestamp,
  completed_at: IsoTimestamp.nullable(),
});
export type Withdrawal = z.infer<typeof Withdrawal>;

/** 201 */
export const CreateWithdrawalResponse = successEnvelope(Withdrawal);
export type CreateWithdrawalResponse = z.infer<typeof CreateWithdrawalResponse>;
export const WithdrawalResponse = successEnvelope(Withdrawal);
export type WithdrawalResponse = z.infer<typeof WithdrawalResponse>;

export const WithdrawalListQuery = z.object({
  status: WithdrawalStatus.optional(),
  currency: Currency.optional(),
  limit: pageLimit({ max: 200, default: 50 }),
  offset: PageOffset,
});
export type WithdrawalListQuery = z.infer<typeof WithdrawalListQuery>;

export const WithdrawalListPage = z.object({
  withdrawals: z.array(Withdrawal),
  total: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
});
export type WithdrawalListPage = z.infer<typeof WithdrawalListPage>;
export const WithdrawalListResponse = successEnvelope(WithdrawalListPage);
export type WithdrawalListResponse = z.infer<typeof WithdrawalListResponse>;

export const WithdrawalIdParams = z.object({ id: Uuid });
export type WithdrawalIdParams = z.infer<typeof WithdrawalIdParams>;
