import { chainById, type ChainConfig } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { CctpPaymentRecord } from './cctp-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import { merchantDestination } from './steps.js';

/** The chains and wallets of one relayer-flow payment. */
export interface RelayRoute {
  source: ChainConfig;
  destination: ChainConfig;
  sourceRpc: ChainRpc;
  destinationRpc: ChainRpc;
  /** The relay wallet the burn mints to: the chain-watcher's relayer account on the destination. */
  relay: string;
  /** The merchant wallet the relay pays. */
  merchant: string;
}

const clients = (ctx: WatcherContext, source: ChainConfig, destination: ChainConfig) => {
  const sourceRpc = ctx.chains.get(source.chainId);
  const destinationRpc = ctx.chains.get(destination.chainId);
  return sourceRpc && destinationRpc ? { sourceRpc, destinationRpc } : undefined;
};

/**
 * Before the burn is verified: the merchant's wallet decides the destination, and the relay wallet is
 * that chain's relayer. Once verified, the route is the one recorded then, whatever changed since.
 */
export const relayRouteOf = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
): Promise<RelayRoute | CctpOutcome> => {
  const source = chainById(ctx.registry, p.sourceChainId);
  if (!source?.cctp) {
    return fail('chain_mismatch', `chain id ${p.sourceChainId} is not a CCTP chain served here`);
  }
  if (p.relayAddress && p.merchantAddress && p.destinationChainId !== null) {
    const destination = chainById(ctx.registry, p.destinationChainId);
    const rpcs = destination ? clients(ctx, source, destination) : undefined;
    // Funds may be in flight: a chain dropped from the configuration must come back, not fail them.
    if (!destination?.cctp || !rpcs) return waitFor(`chain ${p.destinationChainId} is not configured`);
    return { source, destination, ...rpcs, relay: p.relayAddress, merchant: p.merchantAddress };
  }
  const to = await merchantDestination(ctx, p, source);
  if (!('destination' in to)) return to;
  const { destination } = to;
  const relay = ctx.relayers.addressOn(destination.chainId);
  if (!relay) return fail('chain_mismatch', `no relay wallet is configured for ${destination.name}`);
  const rpcs = clients(ctx, source, destination);
  if (!rpcs) return fail('chain_mismatch', 'no RPC client for the route');
  return { source, destination, ...rpcs, relay: getAddress(relay), merchant: to.wallet };
};

/** The relay wallet's key is still the one configured: only then can it sign the mint and transfer. */
export const relayKeyHeld = (ctx: WatcherContext, r: RelayRoute): boolean =>
  ctx.relayers.addressOn(r.destination.chainId) === r.relay;
