import type { ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { broadcastSigned } from './broadcast.js';
import { feesOf, replacementFees } from './fees.js';
import type { RelayerTransaction } from './relayer-transactions-repo.js';
import type { RelayerSeries } from './series.js';
import { storeSigned } from './sign.js';

export interface Mined<A extends string> {
  tx: RelayerTransaction<A>;
  receipt: ReceiptFacts;
}

/** Receipts of every transaction: replacements share a nonce, so at most one of those is ever mined. */
export const minedOf = async <A extends string>(
  rpc: ChainRpc,
  txs: Array<RelayerTransaction<A>>,
): Promise<Array<Mined<A>>> => {
  const receipts = await Promise.all(txs.map((t) => rpc.receipt(t.txHash)));
  return txs.flatMap((tx, i) => (receipts[i] ? [{ tx, receipt: receipts[i] }] : []));
};

/** What the relayer paid for mined transactions: gas used times the price paid, reverted ones included. */
export const gasPaidBy = (mined: ReadonlyArray<Mined<string>>): bigint =>
  mined.reduce((sum, m) => sum + (m.receipt.gasUsed ?? 0n) * (m.receipt.effectiveGasPrice ?? 0n), 0n);

/** Whether two transactions share a relayer nonce (a replacement and what it replaces do). */
export const sameNonce = (a: RelayerTransaction, b: RelayerTransaction): boolean =>
  a.relayerNonce === b.relayerNonce && a.relayerAddress === b.relayerAddress;

/** A series, and the chain its transactions go to. */
export interface SeriesOnChain<A extends string> {
  rpc: ChainRpc;
  chain: ChainConfig;
  series: RelayerSeries<A>;
}

/** Node refusals that a higher fee answers. */
const UNDERPRICED = /underpriced|fee.*(too low|less than)|base fee|gas price.*(too low|below)/i;

/**
 * Signs the latest transaction's action again with `data`: under the same nonce with every fee
 * raised at least 12.5% (a replacement, when it is stuck), or under a new nonce (when its nonce was
 * taken by a transaction that is not ours, or it was mined and reverted by something that has
 * passed). Either way at most one of them can take effect: the nonce makes them exclusive on the
 * relayer side, the action's own nonce on the contract side.
 */
export const resign = async <A extends string>(
  ctx: WatcherContext,
  on: SeriesOnChain<A>,
  txs: Array<RelayerTransaction<A>>,
  how: 'replacement' | 'renonce',
  data: string,
): Promise<RelayerTransaction<A> | undefined> => {
  const { rpc, chain, series } = on;
  const latest = txs.at(-1)!;
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer || relayer !== latest.relayerAddress) {
    // The relayer key changed since: the stored bytes are all that can still go out.
    ctx.logger.warn('relayer transaction cannot be re-signed: its relayer key is no longer configured', {
      ...series.logFields,
      relayer: latest.relayerAddress,
    });
    return undefined;
  }
  const now = await rpc.feeSuggestion();
  const plan =
    how === 'replacement'
      ? { fees: replacementFees(latest, now), nonce: { reuse: latest.relayerNonce } }
      : {
          fees: feesOf(now),
          nonce: { allocate: true as const, chainPending: await rpc.transactionCount(relayer, 'pending') },
        };
  return storeSigned(ctx, chain, series, {
    action: latest.action,
    kind: how,
    to: latest.toAddress,
    data,
    gasLimit: latest.gasLimit,
    ...plan,
    after: txs.length,
  });
};

/** What one look at a series with nothing decisive mined did. */
export type UnminedProgress =
  /** the latest waits its turn (broadcast now if it never was) */
  | { kind: 'sent' }
  /** one of the latest nonce's transactions was mined between two reads */
  | { kind: 'mined_meanwhile' }
  /** the owner found its action done elsewhere (see `doneElsewhere`) */
  | { kind: 'done_elsewhere' }
  | { kind: 'renonced' }
  | { kind: 'replaced' }
  /** an earlier nonce of the relayer holds it up: the same bytes were sent again */
  | { kind: 'behind' };

export interface FollowOptions {
  /** what a new signature carries (the current calldata) */
  data: string;
  /** asked before signing under a new nonce: whether the action already happened without us */
  doneElsewhere?: () => Promise<boolean>;
}

const renonceTaken = async <A extends string>(
  ctx: WatcherContext,
  on: SeriesOnChain<A>,
  txs: Array<RelayerTransaction<A>>,
  opts: FollowOptions,
): Promise<UnminedProgress> => {
  const { rpc, series } = on;
  const latest = txs.at(-1)!;
  // A block may have landed between the receipts and the count: look again before concluding.
  const again = await minedOf(
    rpc,
    txs.filter((t) => sameNonce(t, latest)),
  );
  if (again.length > 0) return { kind: 'mined_meanwhile' };
  if (opts.doneElsewhere && (await opts.doneElsewhere())) return { kind: 'done_elsewhere' };
  ctx.logger.warn('relayer nonce taken by a transaction not ours: signing under a new nonce', {
    ...series.logFields,
    action: latest.action,
    relayer: latest.relayerAddress,
    relayerNonce: latest.relayerNonce,
  });
  const renonced = await resign(ctx, on, txs, 'renonce', opts.data);
  if (renonced) await broadcastSigned(ctx, rpc, series, renonced);
  return { kind: 'renonced' };
};

/**
 * One look at a series with nothing decisive mined. The latest transaction is broadcast if it never
 * was; once it has waited TRANSFER_STUCK_AFTER_MS: replaced with higher fees if its nonce is the
 * relayer's next one (and fees are what keeps it out), signed under a new nonce if that nonce went
 * to a transaction not ours, and otherwise (an earlier nonce of the relayer is holding it up)
 * broadcast again in case a node dropped it.
 */
export const followUnmined = async <A extends string>(
  ctx: WatcherContext,
  on: SeriesOnChain<A>,
  txs: Array<RelayerTransaction<A>>,
  opts: FollowOptions,
): Promise<UnminedProgress> => {
  const { rpc, chain, series } = on;
  const latest = txs.at(-1)!;
  const waited = Date.now() - (latest.broadcastAt ?? latest.signedAt).getTime();
  if (waited < ctx.transfers.stuckAfterMs) {
    if (!latest.broadcastAt) await broadcastSigned(ctx, rpc, series, latest);
    return { kind: 'sent' };
  }
  const minedNonce = await rpc.transactionCount(latest.relayerAddress, 'latest');
  if (minedNonce > latest.relayerNonce) return renonceTaken(ctx, on, txs, opts);
  // Never accepted by a node for a reason higher fees do not cure (the relayer has no gas, say):
  // the same bytes again, rather than ever higher fees.
  const feesCure = latest.broadcastAt !== null || UNDERPRICED.test(latest.lastBroadcastError ?? '');
  if (minedNonce === latest.relayerNonce && feesCure) {
    const replacement = await resign(ctx, on, txs, 'replacement', opts.data);
    if (replacement) {
      ctx.logger.warn('relayer transaction stuck: replaced with higher fees', {
        ...series.logFields,
        chain: chain.name,
        action: latest.action,
        stuck: latest.txHash,
        replacement: replacement.txHash,
        waitedMs: waited,
      });
      await broadcastSigned(ctx, rpc, series, replacement);
      return { kind: 'replaced' };
    }
  }
  await broadcastSigned(ctx, rpc, series, latest);
  return { kind: 'behind' };
};
