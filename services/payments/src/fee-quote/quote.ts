import { randomUUID } from 'node:crypto';
import {
  baseUnitsToDecimal,
  chainByName,
  decimalToBaseUnits,
  type CctpFeeInputs,
  type CctpFeeQuery,
  type CctpFeeQuote,
} from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';
import { FeeInputsUnavailableError } from './fee-inputs.js';
import type { PaymentsContext } from '../context.js';
import { quoteAmounts } from './arithmetic.js';
import { signQuote } from './signature.js';

/**
 * A micro-USD amount as the quote's JSON number. Every amount is a whole number of micro-dollars
 * below 2^53 / 10^6, so the number's shortest text is its exact 6-decimal value (trailing zeros cut).
 */
const usd = (micro: bigint): number => Number(baseUnitsToDecimal(micro));

const readInputs = async (ctx: PaymentsContext, query: CctpFeeQuery): Promise<CctpFeeInputs> => {
  try {
    return await ctx.feeQuotes.inputs.feeInputs(query.destinationChain);
  } catch (err) {
    if (err instanceof FeeInputsUnavailableError) {
      throw new AppError(
        'unavailable',
        `Fee quotes for ${query.destinationChain} are unavailable: its gas price cannot be read now`,
        [],
        5,
      );
    }
    throw err;
  }
};

/**
 * GET /payments/cctp-fee: what a customer burns so that the merchant receives productPrice on the
 * destination chain after Circle's fee and the relayer's gas, signed and valid for a few minutes.
 */
export const quoteCctpFee = async (ctx: PaymentsContext, query: CctpFeeQuery): Promise<CctpFeeQuote> => {
  if (!chainByName(ctx.chains, query.destinationChain)) {
    throw new AppError('validation', 'Fee quote validation failed', [
      fieldDetail(
        'destinationChain',
        `This deployment does not serve ${query.destinationChain}`,
        'unknown_chain',
      ),
    ]);
  }
  const inputs = await readInputs(ctx, query);
  const policy = ctx.feeQuotes;
  const a = quoteAmounts(decimalToBaseUnits(query.productPrice), inputs, policy);
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  return signQuote(policy.key, {
    productPrice: usd(a.productPrice),
    amountToBurn: usd(a.amountToBurn),
    feeGas: usd(a.feeGas),
    feeCircle: usd(a.feeCircle),
    feeTotal: usd(a.feeTotal),
    // The customer pays what it burns; source-chain gas is its wallet's business.
    totalUserPays: usd(a.amountToBurn),
    merchantReceives: usd(a.productPrice),
    destinationChain: query.destinationChain,
    validUntil: issuedAt + policy.validForSeconds,
    validForSeconds: policy.validForSeconds,
    breakdown: {
      gasEstimateUSD: usd(a.gasEstimate),
      gasWithBuffer: usd(a.gasWithBuffer),
      minGasFee: usd(policy.minGasFee),
      bufferPercent: Number(baseUnitsToDecimal(policy.bufferBps, 2)),
    },
    quoteId: randomUUID(),
  });
};
