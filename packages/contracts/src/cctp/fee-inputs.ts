import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { BlockchainName, ChainId } from '../shared/scalars.js';

/** GET /internal/cctp/fee-inputs: the destination chain whose mint and merchant transfer are priced. */
export const CctpFeeInputsQuery = z.object({ destinationChain: BlockchainName });

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
