import { z } from 'zod';
import {
  BlockchainName,
  ChainId,
  Currency,
  DecimalString,
  EvmAddress,
  IsoTimestamp,
  Uuid,
} from '../common.js';
import { successEnvelope } from '../envelope.js';
import { MerchantWalletData } from './merchants.js';
import { PaymentStatus } from './payment-status.js';
import { WalletBalance } from './wallets.js';

/** Service-to-service routes of the chain-watcher (never exposed by the gateway). */
export const InternalWalletParams = z.object({ merchantId: Uuid });
export type InternalWalletParams = z.infer<typeof InternalWalletParams>;
export const InternalWalletResponse = successEnvelope(MerchantWalletData);
export const InternalBalancesResponse = successEnvelope(WalletBalance);

/** One relayer: the account to keep funded with the chain's native coin. */
export const RelayerView = z.object({
  blockchain: BlockchainName,
  chainId: ChainId,
  address: EvmAddress,
  /** configured: RELAYER_PRIVATE_KEYS; derived: from the master seed */
  source: z.enum(['configured', 'derived']),
  /** native balance in wei as a decimal string; null when the chain cannot be reached */
  nativeBalanceWei: z.string().regex(/^\d+$/).nullable(),
});
export type RelayerView = z.infer<typeof RelayerView>;
export const RelayerListResponse = successEnvelope(z.object({ relayers: z.array(RelayerView) }));

/** GET /internal/cctp/fee-inputs: the destination chain whose mint and merchant transfer are priced. */
export const CctpFeeInputsQuery = z.object({ destinationChain: BlockchainName });
export type CctpFeeInputsQuery = z.infer<typeof CctpFeeInputsQuery>;

const WholeNumberString = z.string().regex(/^\d+$/, 'Invalid whole number');

/**
 * What the gas part of a cross-chain fee quote is computed from, read on the destination chain now:
 * the relayer pays gasUnits × gasPriceWei in the native token, worth usdPrice per whole token.
 */
export const CctpFeeInputs = z.object({
  blockchain: BlockchainName,
  chainId: ChainId,
  /** the chain's gas price now (eth_gasPrice), wei as a decimal string */
  gasPriceWei: WholeNumberString,
  /** gas of the CCTP mint (receiveMessage) plus the USDC transfer to the merchant */
  gasUnits: WholeNumberString,
  nativeToken: z.object({
    symbol: z.string().min(1),
    decimals: z.number().int().min(0).max(36),
    /** USD per whole native token, a plain decimal string */
    usdPrice: z.string().regex(/^\d+(\.\d+)?$/, 'Invalid decimal string'),
    /** which price source answered, e.g. `fixed` */
    source: z.string().min(1),
  }),
});
export type CctpFeeInputs = z.infer<typeof CctpFeeInputs>;
export const CctpFeeInputsResponse = successEnvelope(CctpFeeInputs);
export type CctpFeeInputsResponse = z.infer<typeof CctpFeeInputsResponse>;

/** Service-to-service route of the payments service: one payment as its merchant's. */
export const InternalPaymentParams = z.object({ merchantId: Uuid, id: Uuid });
export type InternalPaymentParams = z.infer<typeof InternalPaymentParams>;

/**
 * A payment as the payments service holds it now, for a service whose projection has not caught
 * up yet (the refunds service, before payment.completed reaches it).
 */
export const InternalPayment = z.object({
  payment_id: Uuid,
  merchant_id: Uuid,
  amount: DecimalString,
  currency: Currency,
  status: PaymentStatus,
  tx_hash: z.string(),
  from_address: z.string(),
  source_chain: z.string(),
  /** null for same-chain payments */
  destination_chain: z.string().nullable(),
  is_cross_chain: z.boolean(),
  created_at: IsoTimestamp,
  /** null until the payment completes */
  completed_at: IsoTimestamp.nullable(),
  /**
   * What reached the merchant wallet, once known (also of a payment that failed underpaid), why it
   * failed, and when. Optional so that answers of earlier releases still parse.
   */
  received_amount: DecimalString.nullable().optional(),
  failure_reason: z.string().nullable().optional(),
  failed_at: IsoTimestamp.nullable().optional(),
});
export type InternalPayment = z.infer<typeof InternalPayment>;
export const InternalPaymentResponse = successEnvelope(InternalPayment);
