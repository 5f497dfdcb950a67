import { z } from 'zod';
import { CctpDomain } from '../chains/schema.js';
import { DecimalString } from '../shared/money.js';
import { BlockNumber, ChainId, EvmAddress, TxHash, Uuid } from '../shared/scalars.js';
import { TRANSFER_CHECK_FAILURES } from '../verification/events.js';

/** Cross-chain flow a CCTP event belongs to. */
export const CctpFlow = z.enum(['bridge_kit', 'relayer']);

/** Every step of a cross-chain payment names the payment and the flow it follows. */
const stepOf = { paymentId: Uuid, flow: CctpFlow };

export const CctpBurnVerifiedData = z.object({
  ...stepOf,
  burnTxHash: TxHash,
  sourceChainId: ChainId,
  sourceDomain: CctpDomain,
  destinationDomain: CctpDomain,
  /** burned amount, decimal string */
  amount: DecimalString,
  mintRecipient: EvmAddress,
  blockNumber: BlockNumber,
});

export const CctpAttestedData = z.object({
  ...stepOf,
  burnTxHash: TxHash,
  /** keccak256 of the CCTP message, 0x-hex */
  messageHash: z.string(),
  /** attestation status as reported by the attestation API (e.g. `complete`) */
  attestationStatus: z.string(),
});

export const CctpMintedData = z.object({
  ...stepOf,
  mintTxHash: TxHash,
  destinationChainId: ChainId,
  recipient: EvmAddress,
  /** amount minted to the recipient after CCTP fees, decimal string */
  mintedAmount: DecimalString,
  blockNumber: BlockNumber,
});

/** Legacy relayer flow: minted funds forwarded from the relay wallet to the merchant wallet. */
export const CctpTransferredData = z.object({
  paymentId: Uuid,
  transferTxHash: TxHash,
  toAddress: EvmAddress,
  amount: DecimalString,
  blockNumber: BlockNumber,
  /** amount burned − amount: what the crossing cost the payer (Circle's fee and the relay's gas fee) */
  cctpFeeAmount: DecimalString.optional(),
});

/**
 * Why a cross-chain payment failed; each becomes the payment's failure reason. The burn checks
 * (`not_a_burn`, `wrong_domain` and those of any paying transfer) name the first rule the burn breaks.
 */
export const CctpFailureReason = z.enum([
  'burn_not_found',
  'burn_reverted',
  'not_a_burn',
  'wrong_domain',
  ...TRANSFER_CHECK_FAILURES,
  'burn_mismatch',
  'mint_not_found',
  'attestation_timeout',
  'mint_failed',
  'transfer_failed',
  'quote_invalid',
]);
export type CctpFailureReason = z.infer<typeof CctpFailureReason>;

export const CctpFailedData = z.object({
  ...stepOf,
  reason: CctpFailureReason,
  detail: z.string(),
  /** what reached the merchant wallet anyway (a mint short of the amount), when anything did */
  receivedAmount: DecimalString.optional(),
  cctpFeeAmount: DecimalString.optional(),
});
