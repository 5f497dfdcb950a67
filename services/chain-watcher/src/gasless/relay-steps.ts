import type { ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { GASLESS_RELAY_TRANSACTIONS } from '../migrations/tables.js';
import { broadcastSigned, estimateOrRevert, flushUnsent } from '../relayer/broadcast.js';
import { followUnmined, minedOf, sameNonce, type Mined } from '../relayer/follow.js';
import { listRelayerTransactions, type RelayerTransaction } from '../relayer/relayer-transactions-repo.js';
import type { RelayerSeries } from '../relayer/series.js';
import { storeNewSigned } from '../relayer/sign.js';
import { lockGaslessPayment, type GaslessPaymentRecord, type GaslessStep } from './gasless-repo.js';
import { crashAt, waitFor, type GaslessWait } from './outcome.js';

/*
 * The relay's own transactions of a cross-chain gasless payment after the submission: the approval
 * of the token messenger (once per chain), the burn, and the mint on the merchant's chain. Each is a
 * series of the relayer engine (nonces from the shared allocator, signed bytes stored before they
 * are broadcast, a stuck one replaced under its nonce), and a new one is signed only while no
 * earlier transaction of the series succeeded: replacements share a nonce, so at most one can.
 */

export type CrossChainAction = 'approve' | 'burn' | 'mint';
export type CrossChainTransaction = RelayerTransaction<CrossChainAction>;

/** The step of the payment during which each action is sent. */
const STEP_OF: Record<CrossChainAction, GaslessStep> = { approve: 'burn', burn: 'burn', mint: 'mint' };

export const crossChainSeries = (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
  action: CrossChainAction,
): RelayerSeries<CrossChainAction> => ({
  table: GASLESS_RELAY_TRANSACTIONS,
  key: { payment_id: p.paymentId, action },
  stillWanted: async (trx) => (await lockGaslessPayment(trx, p.paymentId))?.step === STEP_OF[action],
  logFields: { paymentId: p.paymentId, action },
  afterBroadcast: () => {
    if (action !== 'approve') crashAt(ctx, `${action}_broadcast`);
  },
});

/** Where an action's transactions go: the chain, its client and the contract called. */
export interface ActionTarget {
  chain: ChainConfig;
  rpc: ChainRpc;
  to: string;
  data: string;
}

/** What one look at an action found: its successful transaction, or why to look again. */
export type ActionProgress =
  { kind: 'succeeded'; mined: Mined<CrossChainAction> } | { kind: 'waiting'; wait: GaslessWait };

/**
 * One look at an action of the relay. A success is the caller's; a latest nonce mined and reverted
 * is answered by a new transaction once the estimate passes again; anything else is followed by the
 * relayer engine. `relayer` is the relay's address on the target chain.
 */
export const advanceAction = async (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
  action: CrossChainAction,
  target: ActionTarget,
  relayer: string,
): Promise<ActionProgress> => {
  const series = crossChainSeries(ctx, p, action);
  const txs = await listRelayerTransactions<CrossChainAction>(ctx.db, series);
  const latest = txs.at(-1);
  if (latest) {
    // A nonce the relay allocated must reach the chain even when its transaction is no longer needed.
    await flushUnsent(ctx, target.rpc, series, txs);
    const mined = await minedOf(target.rpc, txs);
    const succeeded = mined.find((m) => m.receipt.status === 1);
    if (succeeded) return { kind: 'succeeded', mined: succeeded };
    if (!mined.some((m) => sameNonce(m.tx, latest))) {
      await followUnmined(ctx, { rpc: target.rpc, chain: target.chain, series }, txs, { data: target.data });
      return { kind: 'waiting', wait: waitFor(`${action} sent`, { steady: true }) };
    }
  }
  const estimate = await estimateOrRevert(target.rpc, { from: relayer, to: target.to, data: target.data });
  if ('revert' in estimate)
    return { kind: 'waiting', wait: waitFor(`the ${action} would revert: ${estimate.revert.message}`) };
  const stored = await storeNewSigned(ctx, target.rpc, target.chain, series, {
    action,
    kind: txs.length ? 'renonce' : 'first',
    to: target.to,
    data: target.data,
    gasEstimate: estimate.gas,
    after: txs.length,
  });
  if (stored) await broadcastSigned(ctx, target.rpc, series, stored);
  return { kind: 'waiting', wait: waitFor(`${action} sent`, { steady: true }) };
};
