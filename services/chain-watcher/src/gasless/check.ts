import {
  GASLESS_MAX_VALIDITY_SECONDS,
  chainById,
  type ChainConfig,
  type GaslessCheck,
  type GaslessCheckBody,
  type GaslessRefusalCode,
} from '@stablepay/contracts';
import { AppError } from '@stablepay/platform';
import { getAddress, verifyTypedData } from 'ethers';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { balanceOf } from '../chain/erc20.js';
import { TRANSFER_WITH_AUTHORIZATION_TYPES, authorizationState } from '../chain/fiat-token.js';
import { sameAddress } from '../chain/same-address.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { gasLimitFor } from '../relayer/fees.js';
import { tokenDomain } from '../relayer/token-domain.js';
import { burnGasUnits } from './burn-gas.js';
import { gasUsedOn, recordGasQuote, utcDay } from './gas-budget-repo.js';
import { authorizationOf, encodeAuthorization, simulateSubmission } from './submission.js';

/** A refused authorization: 422, its code in details[].code (nothing is stored or sent). */
export const refusal = (code: GaslessRefusalCode, message: string, path = 'authorization'): AppError =>
  new AppError('unprocessable', message, [{ path, message, code }]);

export { CROSS_CHAIN_BURN_GAS_UNITS } from './burn-gas.js';

/** Clock skew allowed between the payments service that bounded the window and this one. */
const WINDOW_SKEW_SECONDS = 60;

/** The authorization under check, and where it lands: each later check reads both. */
interface Placement {
  body: GaslessCheckBody;
  chain: ChainConfig;
  rpc: ChainRpc;
  token: string;
  relayer: string;
  /** across chains: the merchant's chain, where the relay's burn mints */
  destination: ChainConfig | null;
  /** the merchant wallet the payment pays (across chains: on the destination) */
  wallet: string;
}

/**
 * Who the authorization must pay: the merchant wallet on the same chain, or across chains the relay
 * on the customer's chain (which burns to the merchant wallet on its own chain, through CCTP).
 */
const recipientOf = async (
  ctx: WatcherContext,
  body: GaslessCheckBody,
  chain: ChainConfig,
  relayer: string,
): Promise<{ to: string; destination: ChainConfig | null; wallet: string }> => {
  const crossChain = body.destinationChainId !== null && body.destinationChainId !== chain.chainId;
  const destination = crossChain ? chainById(ctx.registry, body.destinationChainId!) : undefined;
  if (
    crossChain &&
    (!destination?.cctp || !chain.cctp || body.token !== 'USDC' || !ctx.chains.get(destination.chainId))
  )
    throw refusal(
      'token_not_supported',
      `${body.token} does not cross from ${chain.name} here`,
      'destinationChainId',
    );
  const paidOn = destination ?? chain;
  const wallet = await ctx.wallets.primary(body.merchantId);
  if (!wallet || wallet.chainId !== paidOn.chainId)
    throw refusal(
      'authorization_recipient_mismatch',
      `the merchant has no wallet on ${paidOn.name}`,
      crossChain ? 'destinationChainId' : 'authorization.to',
    );
  return {
    to: destination ? relayer : wallet.address,
    destination: destination ?? null,
    wallet: wallet.address,
  };
};

/** The chain, its token contract and its relay, and whether the authorization pays whom it must. */
const placementOf = async (ctx: WatcherContext, body: GaslessCheckBody): Promise<Placement> => {
  const chain = chainById(ctx.registry, body.chainId);
  const token = chain?.tokens[body.token];
  const rpc = ctx.chains.get(body.chainId);
  if (!chain || !token || !rpc)
    throw refusal('token_not_supported', `${body.token} is not served on chain ${body.chainId}`, 'token');
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer)
    throw refusal('token_not_supported', `no relay submits authorizations on ${chain.name}`, 'chainId');
  const { to, destination, wallet } = await recipientOf(ctx, body, chain, relayer);
  if (!sameAddress(body.authorization.to, to))
    throw refusal(
      'authorization_recipient_mismatch',
      `the authorization pays ${body.authorization.to}, not ${destination ? 'the relay' : 'the merchant wallet'} ${getAddress(to)}`,
      'authorization.to',
    );
  return { body, chain, rpc, token: getAddress(token), relayer, destination, wallet };
};

/** The window by this service's clock: open now, and no longer than a signature should live. */
const checkWindow = (body: GaslessCheckBody): void => {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const { validAfter, validBefore } = body.authorization;
  if (BigInt(validAfter) > now)
    throw refusal('authorization_not_yet_valid', `the authorization is valid only after ${validAfter}`);
  if (BigInt(validBefore) <= now)
    throw refusal('authorization_expired', `the authorization expired at ${validBefore}`);
  if (BigInt(validBefore) > now + BigInt(GASLESS_MAX_VALIDITY_SECONDS + WINDOW_SKEW_SECONDS))
    throw refusal(
      'authorization_window_too_long',
      `validBefore may be at most ${GASLESS_MAX_VALIDITY_SECONDS} seconds ahead`,
    );
};

/** The signer of the authorization under the token's EIP-712 domain must be its `from`. */
const checkSignature = async (ctx: WatcherContext, p: Placement): Promise<void> => {
  const domain = await tokenDomain(ctx, p.rpc, p.token);
  const { signature, ...message } = authorizationOf(p.body.authorization);
  let signer: string | undefined;
  try {
    signer = verifyTypedData(domain, TRANSFER_WITH_AUTHORIZATION_TYPES, message, signature);
  } catch {
    signer = undefined;
  }
  if (!signer || !sameAddress(signer, message.from))
    throw refusal('authorization_signature_invalid', `the signature is not ${message.from}'s`);
};

/** What the token says now: the nonce unused, the balance enough, and the submission itself passing. */
const checkOnChain = async (p: Placement): Promise<string> => {
  const auth = authorizationOf(p.body.authorization);
  if (await authorizationState(p.rpc, p.token, auth.from, auth.nonce))
    throw refusal('authorization_nonce_used', 'this authorization was already used or cancelled');
  const balance = await balanceOf(p.rpc, p.token, auth.from);
  if (balance < auth.value)
    throw refusal(
      'authorization_insufficient_balance',
      `${auth.from} holds less ${p.body.token} than the authorization moves`,
    );
  const data = encodeAuthorization(auth);
  const refused = await simulateSubmission(p.rpc, { from: p.relayer, to: p.token, data });
  if (refused) throw refusal(refused.code, refused.message);
  return data;
};

/**
 * The approval and the burn of what the authorization moves to the relay. The burn's Circle fee is
 * not known here; any fee below the amount is a burn of the same gas.
 */
const crossChainGas = (ctx: WatcherContext, p: Placement): Promise<bigint> => {
  const amount = BigInt(p.body.authorization.value);
  return burnGasUnits(ctx, p, {
    source: p.chain,
    destination: p.destination!,
    amount,
    mintRecipient: p.wallet,
    maxFee: amount > 0n ? amount - 1n : 0n,
  });
};

/** The submission's gas and today's worst-case price; the relay's gas and the merchant's budget. */
const priceSubmission = async (ctx: WatcherContext, p: Placement, data: string): Promise<GaslessCheck> => {
  const { body } = p;
  const [estimate, fees, native] = await Promise.all([
    p.rpc.estimateGas({ from: p.relayer, to: p.token, data }),
    p.rpc.feeSuggestion(),
    p.rpc.call('eth_getBalance', (provider) => provider.getBalance(p.relayer)),
  ]);
  // Across chains the relay also burns what it receives (and approves the messenger once).
  const gasUnits = gasLimitFor(estimate) + (p.destination ? await crossChainGas(ctx, p) : 0n);
  const gasPrice = fees.kind === 'eip1559' ? fees.maxFeePerGas : fees.gasPrice;
  const cost = gasUnits * gasPrice;
  const chain = p.chain.name;
  if (native < cost * BigInt(ctx.gasless.gasMargin)) {
    ctx.logger.warn('relay low on gas: gasless payments refused', { chain, relayer: p.relayer });
    throw new AppError(
      'unavailable',
      `the relay on ${chain} is low on gas; try again later`,
      [{ path: '', message: 'the relay is low on gas', code: 'relay_low_on_gas' }],
      ctx.gasless.lowGasRetryAfterS,
    );
  }
  const used = await gasUsedOn(ctx.db, body.merchantId, p.chain.chainId, utcDay(new Date()));
  if (used + cost > ctx.gasless.dailyGasBudgetWei(chain)) {
    throw new AppError(
      'rate_limited',
      `the merchant's relay gas budget on ${chain} is spent for today`,
      [{ path: '', message: 'the daily relay gas budget is spent', code: 'relay_gas_budget_spent' }],
      secondsToMidnightUtc(),
    );
  }
  const auth = authorizationOf(body.authorization);
  await recordGasQuote(ctx.db, {
    chainId: p.chain.chainId,
    from: auth.from,
    nonce: auth.nonce,
    gasWei: cost,
  });
  return { relayer: p.relayer, gasUnits: gasUnits.toString(), gasPriceWei: gasPrice.toString() };
};

const secondsToMidnightUtc = (): number => {
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
};

/**
 * POST /internal/gasless/check: whether the relay could submit this authorization now, and what it
 * would cost. Every rule a customer can fix is a 422 with its code; the relay's own state is a 503
 * (low on gas) or a 429 (the merchant's daily gas budget). RPC failures propagate (503).
 */
export const checkGaslessAuthorization = async (
  ctx: WatcherContext,
  body: GaslessCheckBody,
): Promise<GaslessCheck> => {
  const placement = await placementOf(ctx, body);
  checkWindow(body);
  await checkSignature(ctx, placement);
  const data = await checkOnChain(placement);
  return priceSubmission(ctx, placement, data);
};
