import { z } from 'zod';
import {
  ChainId,
  Currency,
  DecimalString,
  EvmAddress,
  IsoTimestamp,
  TxHash,
  Uuid,
} from '../shared/scalars.js';

/** Same-chain payment (or bridge-kit mint) verified on-chain and deep enough. */
export const ChainPaymentVerifiedData = z.object({
  paymentId: Uuid,
  txHash: TxHash,
  chainId: ChainId,
  token: Currency,
  fromAddress: EvmAddress,
  toAddress: EvmAddress,
  /** amount of the matching Transfer log(s), decimal string */
  receivedAmount: DecimalString,
  /** cross-chain: amount burned − receivedAmount (Circle's and any forwarding fee) */
  cctpFeeAmount: DecimalString.optional(),
  /** bridge kit: the mint's hash (= txHash), so the completion has it whichever of this and chain.cctp.minted is applied first */
  mintTxHash: TxHash.optional(),
  blockNumber: z.number().int().nonnegative(),
  blockTimestamp: IsoTimestamp,
  confirmations: z.number().int().nonnegative(),
});
export type ChainPaymentVerifiedData = z.infer<typeof ChainPaymentVerifiedData>;

export const ChainPaymentRejectReason = z.enum([
  'tx_reverted',
  'tx_not_found',
  'wrong_token',
  'wrong_recipient',
  'wrong_sender',
  'underpaid',
  'chain_mismatch',
  'session_expired_before_tx',
  'already_claimed',
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
