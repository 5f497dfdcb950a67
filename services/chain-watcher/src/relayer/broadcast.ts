import type { BroadcastResult, ChainRpc } from '../chain/chain-rpc.js';
import { revertOf, type Revert } from '../chain/rpc-errors.js';
import type { WatcherContext } from '../context/watcher-context.js';
import {
  markRelayerBroadcast,
  noteRelayerBroadcastError,
  type RelayerTransaction,
} from './relayer-transactions-repo.js';
import type { RelayerSeries } from './series.js';

/** The node refused a relayer transaction (relayer out of gas, fee below the base fee, ...). */
export class BroadcastRejected extends Error {
  override readonly name = 'BroadcastRejected';
}

/** The node's gas estimate, or the contract's refusal (RPC failures are thrown). */
export const estimateOrRevert = async (
  rpc: ChainRpc,
  tx: { from: string; to: string; data: string },
): Promise<{ gas: bigint } | { revert: Revert }> => {
  try {
    return { gas: await rpc.estimateGas(tx) };
  } catch (err) {
    const revert = revertOf(err);
    if (!revert) throw err;
    return { revert };
  }
};

/**
 * Sends the stored bytes. Broadcasting again is harmless (same bytes, same hash), so this runs after
 * every restart for whatever is not known to have reached a node. A transaction the node holds is
 * marked broadcast; a refusal is noted and thrown, to be retried with back-off.
 */
export const broadcastSigned = async <A extends string>(
  ctx: WatcherContext,
  rpc: ChainRpc,
  series: RelayerSeries<A>,
  tx: RelayerTransaction<A>,
): Promise<BroadcastResult> => {
  const result = await rpc.broadcast(tx.rawTx);
  ctx.metrics.transferBroadcasts.inc({ chain: rpc.chain.name, result: result.kind });
  if (result.kind === 'rejected') {
    await noteRelayerBroadcastError(ctx.db, series, tx.attempt, result.message);
    throw new BroadcastRejected(
      `${rpc.chain.name} refused relayer transaction ${tx.txHash} (${tx.action}, relayer ${tx.relayerAddress}, nonce ${tx.relayerNonce}): ${result.message}`,
    );
  }
  series.afterBroadcast(tx);
  // nonce_taken proves nothing about this transaction: the receipts will tell.
  if (result.kind === 'nonce_taken') return result;
  if (!tx.broadcastAt) await markRelayerBroadcast(ctx.db, series, tx.attempt);
  await series.onAccepted?.(tx);
  return result;
};

/**
 * Stored but never known to have reached a node: broadcast now. Run before an action is settled by
 * someone else's transaction, so that a nonce this relayer allocated is never left as a gap that
 * would hold up its later transactions.
 */
export const flushUnsent = async <A extends string>(
  ctx: WatcherContext,
  rpc: ChainRpc,
  series: RelayerSeries<A>,
  txs: Array<RelayerTransaction<A>>,
): Promise<void> => {
  const latest = txs.at(-1);
  if (latest && !latest.broadcastAt) await broadcastSigned(ctx, rpc, series, latest);
};
