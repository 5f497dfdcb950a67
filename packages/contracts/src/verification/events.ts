import { z } from 'zod';
import { Currency, DecimalString } from '../shared/money.js';
import { BlockNumber, ChainId, EvmAddress, IsoTimestamp, TxHash, Uuid } from '../shared/scalars.js';

/** What the chain showed of a transaction that paid (part of) a payment, once deep enough. */
export const verifiedTransferFields = {
  paymentId: Uuid,
  txHash: TxHash,
  chainId: ChainId,
  /** amount of the matching Transfer log(s), decimal string */
  receivedAmount: DecimalString,
  blockNumber: BlockNumber,
  blockTimestamp: IsoTimestamp,
};

/** Same-chain payment (or bridge-kit mint) verified on-chain and deep enough. */
export const ChainPaymentVerifiedData = z.object({
  ...verifiedTransferFields,
  token: Currency,
  fromAddress: EvmAddress,
  toAddress: EvmAddress,
  /** cross-chain: amount burned − receivedAmount (Circle's and any forwarding fee) */
  cctpFeeAmount: DecimalString.optional(),
  /** bridge kit: the mint's hash (= txHash), so the completion has it whichever of this and chain.cctp.minted is applied first */
  mintTxHash: TxHash.optional(),
  confirmations: z.number().int().nonnegative(),
});
export type ChainPaymentVerifiedData = z.infer<typeof ChainPaymentVerifiedData>;

/**
 * The rules a token transfer must pass to pay a merchant, whether it is the payment's own transaction
 * or a CCTP burn: each names the rule broken.
 */
export const TRANSFER_CHECK_FAILURES = [
  'wrong_token',
  'wrong_recipient',
  'wrong_sender',
  'underpaid',
  'chain_mismatch',
  'already_claimed',
] as const;

export const ChainPaymentRejectReason = z.enum([
  'tx_reverted',
  'tx_not_found',
  ...TRANSFER_CHECK_FAILURES,
  'session_expired_before_tx',
]);
export type ChainPaymentRejectReason = z.infer<typeof ChainPaymentRejectReason>;

export const ChainPaymentRejectedData = z.object({
  paymentId: Uuid,
  txHash: TxHash,
  reason: ChainPaymentRejectReason,
  receivedAmount: DecimalString.nullable(),
  /** human-readable explanation, stored as the payment's failure_reason */
  detail: z.string(),
});
export type ChainPaymentRejectedData = z.infer<typeof ChainPaymentRejectedData>;
