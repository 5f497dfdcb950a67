import type { ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { revertOf, type Revert } from '../chain/rpc-errors.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import { allocateRelayerNonce } from '../relayer/attempts-repo.js';
import { lockCctpPayment, type CctpPaymentRecord } from './cctp-repo.js';
import { CCTP_RELAY_TRANSACTIONS } from '../migrations/migrations.js';
import {
  insertRelayTransaction,
  markRelayBroadcast,
  noteRelayBroadcastError,
  type NewRelayTransaction,
  type RelayAction,
  type RelayTransaction,
} from '../relayer/relay-transactions-repo.js';
import type { CctpCrashPoint } from '../config.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { BroadcastRejected } from '../transfers/attempts.js';
import { feesOf, gasLimitFor, replacementFees } from '../transfers/rules.js';

/*
 * The relay wallet's own transactions (the mint on the destination, the transfer to the merchant),
 * sent with the guarantees of outgoing transfers: the nonce comes from the database allocator that
 * transfers use, the signed bytes are stored before they are broadcast and re-broadcast after a
 * restart, and a stuck one is replaced under the same nonce with higher fees. Each action is also
 * exclusive on-chain (a message nonce is received once, an authorization nonce is used once), so a
 * renonced attempt can never repeat what an earlier one did.
 */

/**
 * Test-only fault injection: the process kills itself, as a crash or an OOM kill would, where a naive
 * relay would lose or repeat a mint or a transfer. Nothing runs after it.
 */
export const crashAt = (ctx: WatcherContext, point: CctpCrashPoint): void => {
  if (ctx.cctp.crashPoint !== point) return;
  ctx.logger.warn('CCTP_CRASH_POINT reached: killing the process', { point });
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
};

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

export interface RelayPlan {
  action: RelayAction;
  kind: RelayTransaction['kind'];
  to: string;
  data: string;
  gasLimit: bigint;
  /** a replacement reuses its nonce; anything else allocates one, never below the chain's count */
  nonce: { reuse: number } | { allocate: true; chainPending: number };
  /** how many transactions the action must have: a worker that lost a race stores nothing */
  after: number;
  fees: Pick<RelayTransaction, 'maxFeePerGas' | 'maxPriorityFeePerGas' | 'gasPrice'>;
}

class PlanStale extends Error {}

/**
 * Allocates the nonce, signs and stores the transaction in one database transaction with no RPC
 * inside, under the payment's row lock: once this commits the bytes exist and whoever holds the
 * payment next broadcasts them. Undefined when another worker got there first.
 */
export const storeRelayTransaction = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  chain: ChainConfig,
  plan: RelayPlan,
): Promise<RelayTransaction | undefined> => {
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer) throw new Error(`no relayer key for ${chain.name}`);
  const step = plan.action === 'mint' ? 'mint' : 'transfer';
  let stored: NewRelayTransaction;
  try {
    stored = await ctx.db.transaction(async (trx) => {
      const current = await lockCctpPayment(trx, p.paymentId);
      if (current?.step !== step) throw new PlanStale();
      const [{ n }] = (await trx(CCTP_RELAY_TRANSACTIONS)
        .where({ payment_id: p.paymentId, action: plan.action })
        .count('* as n')) as [{ n: string }];
      if (Number(n) !== plan.after) throw new PlanStale();
      const nonce =
        'reuse' in plan.nonce
          ? plan.nonce.reuse
          : await allocateRelayerNonce(trx, chain.chainId, relayer, plan.nonce.chainPending);
      const legacy = plan.fees.gasPrice !== null;
      const signed = ctx.relayers.sign(chain.chainId, {
        type: legacy ? 0 : 2,
        nonce,
        to: plan.to,
        data: plan.data,
        value: 0n,
        gasLimit: plan.gasLimit,
        ...(legacy
          ? { gasPrice: plan.fees.gasPrice }
          : { maxFeePerGas: plan.fees.maxFeePerGas, maxPriorityFeePerGas: plan.fees.maxPriorityFeePerGas }),
      });
      const tx: NewRelayTransaction = {
        paymentId: p.paymentId,
        action: plan.action,
        attempt: plan.after + 1,
        kind: plan.kind,
        chainId: chain.chainId,
        relayerAddress: relayer,
        relayerNonce: nonce,
        toAddress: plan.to,
        txHash: signed.hash!.toLowerCase(),
        rawTx: signed.serialized,
        gasLimit: plan.gasLimit,
        ...plan.fees,
      };
      await insertRelayTransaction(trx, tx);
      return tx;
    });
  } catch (err) {
    if (err instanceof PlanStale) return undefined;
    throw err;
  }
  ctx.logger.info('relay transaction signed', {
    paymentId: p.paymentId,
    chain: chain.name,
    action: plan.action,
    attempt: stored.attempt,
    kind: plan.kind,
    relayerNonce: stored.relayerNonce,
    txHash: stored.txHash,
  });
  return { ...stored, signedAt: new Date(), broadcastAt: null, lastBroadcastError: null };
};

/** The first transaction of an action: today's fees, the relayer's next nonce. */
export const storeFirstRelayTransaction = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  tx: { action: RelayAction; to: string; data: string; gasEstimate: bigint; after?: number },
): Promise<RelayTransaction | undefined> => {
  const relayer = ctx.relayers.addressOn(chain.chainId)!;
  return storeRelayTransaction(ctx, p, chain, {
    action: tx.action,
    kind: tx.after ? 'renonce' : 'first',
    to: tx.to,
    data: tx.data,
    gasLimit: gasLimitFor(tx.gasEstimate),
    fees: feesOf(await rpc.feeSuggestion()),
    nonce: { allocate: true, chainPending: await rpc.transactionCount(relayer, 'pending') },
    after: tx.after ?? 0,
  });
};

/**
 * Sends the stored bytes; harmless to repeat (same bytes, same hash). A refusal is noted and thrown,
 * to be retried with back-off.
 */
export const broadcastRelayTransaction = async (
  ctx: WatcherContext,
  rpc: ChainRpc,
  tx: RelayTransaction,
): Promise<void> => {
  const result = await rpc.broadcast(tx.rawTx);
  ctx.metrics.transferBroadcasts.inc({ chain: rpc.chain.name, result: result.kind });
  if (result.kind === 'rejected') {
    await noteRelayBroadcastError(ctx.db, tx, result.message);
    throw new BroadcastRejected(
      `${rpc.chain.name} refused relay ${tx.action} ${tx.txHash} (relayer ${tx.relayerAddress}, nonce ${tx.relayerNonce}): ${result.message}`,
    );
  }
  crashAt(ctx, tx.action === 'mint' ? 'mint_broadcast' : 'transfer_broadcast');
  // nonce_taken proves nothing about this transaction: the receipts will tell.
  if (result.kind !== 'nonce_taken' && !tx.broadcastAt) await markRelayBroadcast(ctx.db, tx);
};

/**
 * Stored but never known to have reached a node: broadcast now. Run before an action is settled by
 * someone else's transaction, so that a nonce this relayer allocated is never left as a gap that
 * would hold up its later transactions (refunds included).
 */
export const flushUnsent = async (ctx: WatcherContext, rpc: ChainRpc, txs: RelayTransaction[]) => {
  const latest = txs.at(-1);
  if (latest && !latest.broadcastAt) await broadcastRelayTransaction(ctx, rpc, latest);
};

export interface MinedRelay {
  tx: RelayTransaction;
  receipt: ReceiptFacts;
}

/** Receipts of every attempt: replacements share a nonce, so at most one of those is ever mined. */
export const minedRelayTransactions = async (
  rpc: ChainRpc,
  txs: RelayTransaction[],
): Promise<MinedRelay[]> => {
  const receipts = await Promise.all(txs.map((t) => rpc.receipt(t.txHash)));
  return txs.flatMap((tx, i) => (receipts[i] ? [{ tx, receipt: receipts[i] }] : []));
};

/** What became of an action's transactions. */
export type RelayProgress =
  | { kind: 'succeeded'; mined: MinedRelay }
  /** the latest nonce's transaction was mined and reverted: the caller decides what next */
  | { kind: 'reverted'; mined: MinedRelay }
  | { kind: 'waiting'; note: string };

const sameNonce = (a: RelayTransaction, b: RelayTransaction) =>
  a.relayerNonce === b.relayerNonce && a.relayerAddress === b.relayerAddress;

/** Node refusals that a higher fee answers. */
const UNDERPRICED = /underpriced|fee.*(too low|less than)|base fee|gas price.*(too low|below)/i;

/**
 * One look at an action's transactions. Nothing decisive mined: the latest is broadcast if it never
 * was, and once it has waited TRANSFER_STUCK_AFTER_MS it is replaced with higher fees (its nonce is
 * the relayer's next), signed under a new nonce (its nonce went to a transaction not ours), or sent
 * again (an earlier nonce of the relayer holds it up). `data` is what a new signature carries: the
 * current calldata, which a re-attestation may have changed.
 */
export const followRelayTransactions = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  txs: RelayTransaction[],
  data: string,
): Promise<RelayProgress> => {
  const latest = txs.at(-1)!;
  const mined = await minedRelayTransactions(rpc, txs);
  const succeeded = mined.find((m) => m.receipt.status === 1);
  if (succeeded) return { kind: 'succeeded', mined: succeeded };
  const reverted = mined.find((m) => sameNonce(m.tx, latest));
  if (reverted) return { kind: 'reverted', mined: reverted };

  const waited = Date.now() - (latest.broadcastAt ?? latest.signedAt).getTime();
  if (waited < ctx.transfers.stuckAfterMs) {
    if (!latest.broadcastAt) await broadcastRelayTransaction(ctx, rpc, latest);
    return { kind: 'waiting', note: `${latest.action} transaction sent` };
  }
  const relayer = ctx.relayers.addressOn(chain.chainId);
  const minedNonce = await rpc.transactionCount(latest.relayerAddress, 'latest');
  if (minedNonce > latest.relayerNonce && relayer === latest.relayerAddress) {
    // A block may have landed between the receipts and the count: look again before concluding.
    const again = await minedRelayTransactions(
      rpc,
      txs.filter((t) => sameNonce(t, latest)),
    );
    if (again.length > 0) return { kind: 'waiting', note: 'mined just now' };
    ctx.logger.warn('relay nonce taken by a transaction not ours: signing under a new nonce', {
      paymentId: p.paymentId,
      action: latest.action,
      relayerNonce: latest.relayerNonce,
    });
    const renonced = await storeRelayTransaction(ctx, p, chain, {
      action: latest.action,
      kind: 'renonce',
      to: latest.toAddress,
      data,
      gasLimit: latest.gasLimit,
      fees: feesOf(await rpc.feeSuggestion()),
      nonce: { allocate: true, chainPending: await rpc.transactionCount(relayer, 'pending') },
      after: txs.length,
    });
    if (renonced) await broadcastRelayTransaction(ctx, rpc, renonced);
    return { kind: 'waiting', note: 'signed under a new nonce' };
  }
  const feesCure = latest.broadcastAt !== null || UNDERPRICED.test(latest.lastBroadcastError ?? '');
  if (minedNonce === latest.relayerNonce && feesCure && relayer === latest.relayerAddress) {
    const replacement = await storeRelayTransaction(ctx, p, chain, {
      action: latest.action,
      kind: 'replacement',
      to: latest.toAddress,
      data,
      gasLimit: latest.gasLimit,
      fees: replacementFees(latest, await rpc.feeSuggestion()),
      nonce: { reuse: latest.relayerNonce },
      after: txs.length,
    });
    if (replacement) {
      ctx.logger.warn('relay transaction stuck: replaced with higher fees', {
        paymentId: p.paymentId,
        action: latest.action,
        stuck: latest.txHash,
        replacement: replacement.txHash,
        waitedMs: waited,
      });
      await broadcastRelayTransaction(ctx, rpc, replacement);
      return { kind: 'waiting', note: 'replaced with higher fees' };
    }
  }
  await broadcastRelayTransaction(ctx, rpc, latest);
  return { kind: 'waiting', note: 'waiting behind an earlier relayer nonce' };
};
