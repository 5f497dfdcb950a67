import { chainById, type ChainConfig } from '@stablepay/contracts';
import { MaxUint256, getAddress } from 'ethers';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { allowanceOf, encodeApprove } from '../chain/fiat-token.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { insertCctpPayment } from '../cctp/cctp-repo.js';
import { encodeBurn } from './burn-gas.js';
import { moveGasless, type GaslessPaymentRecord } from './gasless-repo.js';
import { waitFor, type GaslessWait } from './outcome.js';
import { advanceAction } from './relay-steps.js';
import { countGasSpent, crossChainGasPaid, recordStepGas } from './relay-gas.js';

/** The source chain with its client and the destination, for a cross-chain payment's burn and mint. */
export interface CrossChainRoute {
  source: ChainConfig;
  sourceRpc: ChainRpc;
  destination: ChainConfig;
  destinationRpc: ChainRpc;
}

export const crossChainRouteOf = (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
): CrossChainRoute | GaslessWait => {
  const source = chainById(ctx.registry, p.chainId);
  const destination =
    p.destinationChainId === null ? undefined : chainById(ctx.registry, p.destinationChainId);
  const sourceRpc = ctx.chains.get(p.chainId);
  const destinationRpc = destination && ctx.chains.get(destination.chainId);
  // The customer's funds are the relay's to deliver: a chain dropped from the configuration must come back.
  if (!source?.cctp || !destination?.cctp || !sourceRpc || !destinationRpc)
    return waitFor(`the route from chain ${p.chainId} to ${p.destinationChainId} is not configured`);
  return { source, sourceRpc, destination, destinationRpc };
};

/**
 * The burn of what the relay received: everything but the network fee the customer paid it for its
 * gas, with Circle's fee (the quote's cctpFee) as the most the attestation may take, minted to the
 * merchant wallet on its chain.
 */
export const burnCalldata = (p: GaslessPaymentRecord, r: CrossChainRoute): string =>
  encodeBurn({
    source: r.source,
    destination: r.destination,
    amount: p.burnUnits!,
    mintRecipient: p.merchantAddress!,
    maxFee: p.cctpFeeUnits,
  });

/**
 * Burn step of a cross-chain gasless payment: the token messenger approved once per chain, then the
 * burn. Once it succeeded the payment is followed as a bridge-kit CCTP payment of the relay's burn
 * (its confirmations, the attestation, the mint to the merchant wallet), and waits here to be minted.
 */
export const advanceBurn = async (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
  r: CrossChainRoute,
): Promise<GaslessWait | undefined> => {
  const relayer = ctx.relayers.addressOn(r.source.chainId);
  if (!relayer) return waitFor(`no relayer key for ${r.source.name}`);
  const usdc = getAddress(r.source.tokens.USDC!);
  const messenger = getAddress(r.source.cctp!.tokenMessenger);
  if ((await allowanceOf(r.sourceRpc, usdc, relayer, messenger)) < p.burnUnits!) {
    const approval = await advanceAction(
      ctx,
      p,
      'approve',
      { chain: r.source, rpc: r.sourceRpc, to: usdc, data: encodeApprove(messenger, MaxUint256) },
      relayer,
    );
    return approval.kind === 'waiting' ? approval.wait : waitFor('approved', { steady: true });
  }
  const target = { chain: r.source, rpc: r.sourceRpc, to: messenger, data: burnCalldata(p, r) };
  const burn = await advanceAction(ctx, p, 'burn', target, relayer);
  if (burn.kind === 'waiting') return burn.wait;
  const burnTxHash = burn.mined.tx.txHash.toLowerCase();
  const gasWei = await crossChainGasPaid(ctx, p, r.sourceRpc, ['approve', 'burn']);
  const moved = await ctx.db.transaction(async (trx) => {
    if (!(await moveGasless(trx, p.paymentId, 'burn', 'mint', { burnTxHash }))) return false;
    await recordStepGas(trx, p, r.source.chainId, gasWei);
    await insertCctpPayment(trx, {
      paymentId: p.paymentId,
      merchantId: p.merchantId,
      flow: 'bridge_kit',
      sourceChainId: r.source.chainId,
      destinationChainId: r.destination.chainId,
      burnTxHash,
      mintTxHash: null,
      fromAddress: getAddress(relayer),
      expectedUnits: p.burnUnits!,
      merchantReceivesUnits: p.merchantReceivesUnits!,
      paymentCreatedAt: p.paymentCreatedAt,
    });
    return true;
  });
  if (moved) countGasSpent(ctx, p, r.source, gasWei);
  ctx.logger.info('gasless burn mined', { paymentId: p.paymentId, burnTxHash });
  return undefined;
};
