import { randomBytes } from 'node:crypto';
import { chainById, type GaslessGasEstimate, type GaslessGasEstimateQuery } from '@stablepay/contracts';
import { AppError } from '@stablepay/platform';
import { Wallet, getAddress, hexlify } from 'ethers';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../chain/fiat-token.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { gasLimitFor } from '../relayer/fees.js';
import { tokenDomain } from '../relayer/token-domain.js';
import { CROSS_CHAIN_BURN_GAS_UNITS, burnGasUnits } from './burn-gas.js';
import { encodeAuthorization } from './submission.js';

/**
 * What a real amount adds to a zero-value transferWithAuthorization: the payer's balance written
 * (non-zero to non-zero, 2,900 more than leaving it) and the recipient's (zero to non-zero at worst,
 * 20,000 more), and the value's non-zero calldata bytes. Rounded up.
 */
const AMOUNT_WRITES_GAS_UNITS = 25_000n;

/** A burn's amount for a quote, which comes before the amount is final: the gas barely depends on it. */
const PROBE_BURN_UNITS = 1_000_000n;

/** Across chains, the approval and the burn as the check will price them (the fixed figure without a route). */
const quotedBurnGas = async (
  ctx: WatcherContext,
  q: GaslessGasEstimateQuery,
  relayer: string,
): Promise<bigint> => {
  if (q.destinationChainId === undefined || q.destinationChainId === q.chainId) return 0n;
  const source = chainById(ctx.registry, q.chainId);
  const destination = chainById(ctx.registry, q.destinationChainId);
  const rpc = ctx.chains.get(q.chainId);
  if (!source?.cctp || !source.tokens.USDC || !destination?.cctp || !rpc) return CROSS_CHAIN_BURN_GAS_UNITS;
  const probe = { amount: PROBE_BURN_UNITS, mintRecipient: relayer, maxFee: PROBE_BURN_UNITS / 2n };
  return burnGasUnits(ctx, { rpc, relayer }, { source, destination, ...probe });
};

/**
 * The relay's gas on the customer's chain before anything is signed, for a quote: eth_estimateGas of
 * the very call the relay sends (transferWithAuthorization to `to`, from the relay), authorised by a
 * throwaway key for a zero value (the only amount it can move), plus what a real amount writes, with
 * the relay's own gas-limit margin; across chains the approval and the burn as well. A quote priced
 * this way follows the chain (its token contract, the recipient's state) instead of a fixed figure.
 */
export const estimateGaslessGas = async (
  ctx: WatcherContext,
  q: GaslessGasEstimateQuery,
): Promise<GaslessGasEstimate> => {
  const chain = chainById(ctx.registry, q.chainId);
  const token = chain?.tokens[q.token];
  const rpc = ctx.chains.get(q.chainId);
  const relayer = chain && ctx.relayers.addressOn(chain.chainId);
  if (!chain || !token || !rpc || !relayer)
    throw new AppError('not_found', `${q.token} is not relayed on chain ${q.chainId}`);
  const probe = Wallet.createRandom();
  const message = {
    from: probe.address,
    to: getAddress(q.to),
    value: 0n,
    validAfter: 0n,
    validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600),
    nonce: hexlify(randomBytes(32)),
  };
  const domain = await tokenDomain(ctx, rpc, token);
  const signature = await probe.signTypedData(domain, TRANSFER_WITH_AUTHORIZATION_TYPES, message);
  const data = encodeAuthorization({ ...message, signature });
  const estimate = await rpc.estimateGas({ from: relayer, to: getAddress(token), data });
  return {
    submitGasUnits: gasLimitFor(estimate + AMOUNT_WRITES_GAS_UNITS).toString(),
    burnGasUnits: (await quotedBurnGas(ctx, q, relayer)).toString(),
  };
};
