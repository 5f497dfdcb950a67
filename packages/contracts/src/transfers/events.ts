import { z } from 'zod';
import { Currency, DecimalString } from '../shared/money.js';
import { BlockNumber, BlockchainName, EvmAddress, TxHash, Uuid } from '../shared/scalars.js';

export const TransferPurpose = z.enum(['refund', 'withdrawal', 'cctp_forward']);
export type TransferPurpose = z.infer<typeof TransferPurpose>;

/**
 * Command to the chain-watcher: send `amount` of `token` from the merchant wallet to `toAddress`.
 * Idempotent by `idempotencyKey`, chosen by the requester (the refund or withdrawal id): the same key
 * never produces a second transfer, however often the command is delivered.
 */
export const TransferRequestedData = z.object({
  idempotencyKey: z.string().min(1).max(200),
  purpose: TransferPurpose,
  merchantId: Uuid,
  blockchain: BlockchainName,
  token: Currency,
  amount: DecimalString,
  toAddress: EvmAddress,
});
export type TransferRequestedData = z.infer<typeof TransferRequestedData>;

/** `purpose` is echoed on every outcome so each requester can pick its own transfers. */
const outcomeOf = { idempotencyKey: z.string().min(1), purpose: TransferPurpose };

export const TransferSubmittedData = z.object({
  ...outcomeOf,
  txHash: TxHash,
  blockchain: BlockchainName,
});

export const TransferConfirmedData = z.object({
  ...outcomeOf,
  txHash: TxHash,
  blockNumber: BlockNumber,
});

export const TransferFailureReason = z.enum([
  'insufficient_funds',
  'blacklisted',
  'reverted',
  'invalid_request',
  'chain_unavailable',
  'unknown',
]);
export type TransferFailureReason = z.infer<typeof TransferFailureReason>;

export const TransferFailedData = z.object({
  ...outcomeOf,
  /** human-readable reason (becomes a refund's failure_reason) */
  reason: z.string(),
  code: TransferFailureReason.optional(),
  txHash: TxHash.nullable().optional(),
});
