import { z } from 'zod';
import { eventPaymentFields } from '../events/envelope.js';
import { Currency, DecimalString } from '../shared/money.js';
import { BlockchainName, ChainId, EvmAddress, IsoTimestamp, TxHash } from '../shared/scalars.js';
import { NetworkFeeBearer, TransferAuthorization } from './schemas.js';

/**
 * payments → chain-watcher: a gasless payment was accepted; submit its authorization once (through
 * the relayer's transaction engine) and verify it by the token's AuthorizationUsed(from, nonce) log,
 * whoever's transaction used it.
 */
export const PaymentAuthorizationReceivedData = z.object({
  ...eventPaymentFields,
  chainId: ChainId,
  sourceChain: BlockchainName,
  currency: Currency,
  /** what the merchant is owed (after the fees the merchant bears are recorded, not before) */
  amount: DecimalString,
  /** the merchant wallet the payment pays (cross-chain: on the destination chain) */
  toAddress: EvmAddress,
  isCrossChain: z.boolean(),
  destinationChainId: ChainId.nullable(),
  authorization: TransferAuthorization,
  networkFee: DecimalString,
  cctpFee: DecimalString,
  feeBearer: NetworkFeeBearer,
  sessionId: z.string().nullable(),
  sessionCreatedAt: IsoTimestamp.nullable(),
  createdAt: IsoTimestamp,
});
export type PaymentAuthorizationReceivedData = z.infer<typeof PaymentAuthorizationReceivedData>;

/** chain-watcher → payments: the relay's transaction that submits a gasless payment's authorization. */
export const ChainPaymentRelayedData = z.object({
  ...eventPaymentFields,
  chainId: ChainId,
  txHash: TxHash,
  relayer: EvmAddress,
});
export type ChainPaymentRelayedData = z.infer<typeof ChainPaymentRelayedData>;
