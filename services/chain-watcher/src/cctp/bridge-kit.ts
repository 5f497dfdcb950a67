import { chainById, type ChainConfig } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { claimTransaction } from '../verification/claims-repo.js';
import { announceBurnVerified } from './announce.js';
import { advanceCctp, type CctpPaymentRecord } from './cctp-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { checkBridgeKitMint } from './bridge-kit-mint.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import { ClaimTaken, payingBurn, deepEnough, merchantDestination, runCctpStep } from './steps.js';

/** The chains and wallet of one cross-chain payment, or why it cannot be paid that way. */
export interface BridgeKitRoute {
  source: ChainConfig;
  destination: ChainConfig;
  wallet: string;
  sourceRpc: ChainRpc;
  destinationRpc: ChainRpc;
}

const routeOf = async (ctx: WatcherContext, p: CctpPaymentRecord): Promise<BridgeKitRoute | CctpOutcome> => {
  const source = chainById(ctx.registry, p.sourceChainId);
  if (!source?.cctp) {
    return fail('chain_mismatch', `chain id ${p.sourceChainId} is not a CCTP chain served here`);
  }
  const to = await merchantDestination(ctx, p, source);
  if (!('destination' in to)) return to;
  const sourceRpc = ctx.chains.get(source.chainId);
  const destinationRpc = ctx.chains.get(to.destination.chainId);
  if (!sourceRpc || !destinationRpc) return fail('chain_mismatch', 'no RPC client for the route');
  return { source, destination: to.destination, wallet: to.wallet, sourceRpc, destinationRpc };
};

/** Burn step: the transaction burned enough USDC on the source chain, to the merchant, deep enough. */
const checkBurn = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: BridgeKitRoute,
): Promise<CctpOutcome | undefined> => {
  const found = await payingBurn(ctx, p, r, r.wallet);
  if (!('receipt' in found)) return found;
  const { receipt } = found;
  if (!(await deepEnough(r.sourceRpc, r.source, receipt.blockNumber)))
    return waitFor('burn confirmations', { steady: true });
  const burn = found.burn;
  await ctx.db.transaction(async (trx) => {
    if (!(await claimTransaction(trx, r.source.chainId, p.burnTxHash, p.paymentId))) {
      throw new ClaimTaken();
    }
    if (
      !(await advanceCctp(trx, p.paymentId, 'burn', 'mint', {
        burnBlock: receipt.blockNumber,
        burnedUnits: burn.amount,
      }))
    )
      return;
    await announceBurnVerified(ctx, trx, p, {
      source: r.source,
      destinationDomain: burn.destinationDomain,
      amount: burn.amount,
      blockNumber: receipt.blockNumber,
      mintRecipient: getAddress(r.wallet),
    });
  });
  return undefined;
};

/** One look at a bridge-kit payment: its burn, then its mint (see runCctpStep). */
export const advanceBridgeKitPayment = (ctx: WatcherContext, p: CctpPaymentRecord): Promise<void> =>
  runCctpStep(ctx, p, async () => {
    const route = await routeOf(ctx, p);
    if (!('source' in route)) return route;
    if (p.step === 'burn') return checkBurn(ctx, p, route);
    if (p.step === 'mint') return checkBridgeKitMint(ctx, p, route);
    return undefined;
  });
