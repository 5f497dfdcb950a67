import { randomUUID } from 'node:crypto';
import {
  GASLESS_MAX_VALIDITY_SECONDS,
  baseUnitsToDecimal,
  decimalToBaseUnits,
  type BlockchainName,
  type CctpFeeInputs,
  type GaslessQuote,
  type GaslessQuoteQuery,
  type NetworkFeeBearer,
  type TokenDomainView,
} from '@stablepay/contracts';
import { AppError, fieldDetail, notFound } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { FeeInputsUnavailableError } from '../fee-quote/fee-inputs.js';
import { findMerchantByPublicId } from '../merchants/merchants-repo.js';
import type { CheckoutSessionRecord, MerchantRecord } from '../records.js';
import { payableSession, placeGasless, type GaslessPlacement } from './placement.js';
import { signGaslessQuote } from './quote-signature.js';
import { authorizedTotal, cctpBurnFee, gaslessNonce, relayGasFee } from './terms.js';

/** 422 with one of the refusal codes (GaslessRefusalCode), naming the field at fault. */
export const refused = (path: string, message: string, code: string): AppError =>
  new AppError('unprocessable', message, [fieldDetail(path, message, code)]);

/** Who bears a gasless payment's fees: the merchant's choice, else the deployment's default. */
export const feeBearerOf = (ctx: PaymentsContext, merchant: MerchantRecord): NetworkFeeBearer =>
  merchant.networkFeeBearer ?? ctx.gasless.feeBearer;

/** The chain's gas price and native-coin price now, from the chain-watcher. */
export const gasPricesOn = async (ctx: PaymentsContext, chain: BlockchainName): Promise<CctpFeeInputs> => {
  try {
    return await ctx.feeQuotes.inputs.feeInputs(chain);
  } catch (err) {
    if (err instanceof FeeInputsUnavailableError) {
      throw new AppError('unavailable', `Gas on ${chain} cannot be priced now; try again shortly`, [], 5);
    }
    throw err;
  }
};

/** The token's EIP-712 domain as the chain-watcher reads it from the contract; 422 without one. */
export const tokenDomainOf = async (
  ctx: PaymentsContext,
  chainId: number,
  token: GaslessQuoteQuery['token'],
): Promise<TokenDomainView> => {
  const domain = await ctx.gasless.relay.tokenDomain(chainId, token);
  if (!domain)
    throw refused('token', `${token} cannot be paid with a signature on this chain`, 'token_not_supported');
  return domain;
};

/** Who the customer authorises: the merchant wallet on one chain, the relay across chains. */
const recipientOf = async (ctx: PaymentsContext, at: GaslessPlacement): Promise<string> => {
  if (!at.isCrossChain) return at.merchantWallet;
  const relayer = await ctx.gasless.relay.relayerOn(at.chainId);
  if (!relayer) throw new AppError('unavailable', 'No relay serves this chain right now', [], 30);
  return relayer;
};

/** What the merchant is owed: the session's amount, or for a session without one (or none) the query's. */
const amountOwed = (query: GaslessQuoteQuery, session: CheckoutSessionRecord | null): string => {
  if (session?.amount != null) {
    if (query.amount !== undefined && decimalToBaseUnits(query.amount) !== decimalToBaseUnits(session.amount))
      throw new AppError('validation', 'Payment does not match the checkout session', [
        fieldDetail('amount', `The checkout session amount is ${session.amount}`, 'session_mismatch'),
      ]);
    return session.amount;
  }
  if (query.amount === undefined)
    throw new AppError('validation', 'Query validation failed', [
      fieldDetail('amount', 'amount is required without a checkout session that fixes it', 'required'),
    ]);
  return query.amount;
};

/** The latest validBefore: the session's expiry, and never more than an hour ahead. */
const latestValidBefore = (nowSeconds: number, session: CheckoutSessionRecord | null): number => {
  const cap = nowSeconds + GASLESS_MAX_VALIDITY_SECONDS;
  return session ? Math.min(cap, Math.floor(session.expiresAt.getTime() / 1000)) : cap;
};

/**
 * Across chains the relay also mints on the merchant's chain when nobody else does: its gas there,
 * at the gas the chain-watcher prices a relay's work on that chain with (the legacy relayer flow's
 * mint and transfer: an upper bound of the mint alone), in the token.
 */
const destinationMintFee = async (ctx: PaymentsContext, chain: BlockchainName): Promise<bigint> => {
  const inputs = await gasPricesOn(ctx, chain);
  return relayGasFee(BigInt(inputs.gasUnits), inputs);
};

/**
 * GET /payments/gasless-quote: every fee and what to sign, signed and valid for the fee quotes'
 * validity. The relay's gas (its submission, estimated on the chain, and across chains its burn)
 * is priced on the source chain at its gas price and native-coin price now, and across chains its mint on the merchant's
 * chain at that chain's, each rounded up to the base unit; Circle's fee across chains is its
 * fast-transfer rate on the burn.
 */
export const quoteGasless = async (ctx: PaymentsContext, query: GaslessQuoteQuery): Promise<GaslessQuote> => {
  const merchant = await findMerchantByPublicId(ctx.db, query.merchantId);
  if (!merchant) throw notFound('Merchant');
  const at = placeGasless(ctx, merchant, query);
  const session = query.sessionId ? await payableSession(ctx, merchant, query.sessionId, query.token) : null;
  const amount = decimalToBaseUnits(amountOwed(query, session));
  const domain = await tokenDomainOf(ctx, at.chainId, query.token);
  const to = await recipientOf(ctx, at);
  const feeBearer = feeBearerOf(ctx, merchant);
  const estimate = await ctx.gasless.relay.gasEstimate({
    chainId: at.chainId,
    token: query.token,
    to,
    ...(at.isCrossChain && at.destinationChainId !== null
      ? { destinationChainId: at.destinationChainId }
      : {}),
  });
  const gasUnits = BigInt(estimate.submitGasUnits) + BigInt(estimate.burnGasUnits);
  const networkFee =
    relayGasFee(gasUnits, await gasPricesOn(ctx, at.sourceChain)) +
    (at.destinationChain ? await destinationMintFee(ctx, at.destinationChain) : 0n);
  const cctpFee = at.isCrossChain ? cctpBurnFee(amount, ctx.feeQuotes.attestationFeeUnits, feeBearer) : 0n;
  const total = authorizedTotal(amount, networkFee, cctpFee, feeBearer);
  const quoteId = randomUUID();
  const nowMs = ctx.now().getTime();
  const validBefore = latestValidBefore(Math.floor(nowMs / 1000), session);
  const expiresAtMs = Math.min(nowMs + ctx.feeQuotes.validForSeconds * 1000, validBefore * 1000);
  return signGaslessQuote(ctx.feeQuotes.key, {
    quoteId,
    merchantId: merchant.publicId,
    sessionId: session?.id ?? null,
    chainId: at.chainId,
    token: query.token,
    destinationChainId: at.destinationChainId,
    amount: baseUnitsToDecimal(amount),
    networkFee: baseUnitsToDecimal(networkFee),
    cctpFee: baseUnitsToDecimal(cctpFee),
    feeBearer,
    total: baseUnitsToDecimal(total),
    authorization: {
      to,
      value: total.toString(),
      nonce: gaslessNonce(merchant.merchantId, session?.id ?? quoteId),
      validBefore: String(validBefore),
    },
    domain,
    expiresAt: new Date(expiresAtMs).toISOString(),
  });
};
