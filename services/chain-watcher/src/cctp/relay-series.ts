import type { ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { CctpCrashPoint } from '../config.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { CCTP_RELAY_TRANSACTIONS } from '../migrations/tables.js';
import { broadcastSigned, flushUnsent } from '../relayer/broadcast.js';
import { killAt } from '../relayer/crash-point.js';
import { followUnmined, minedOf, sameNonce, type Mined, type UnminedProgress } from '../relayer/follow.js';
import { listRelayerTransactions, type RelayerTransaction } from '../relayer/relayer-transactions-repo.js';
import type { RelayerSeries } from '../relayer/series.js';
import { storeNewSigned } from '../relayer/sign.js';
import { waitFor, type CctpOutcome } from './burn-rules.js';
import { lockCctpPayment, type CctpPaymentRecord } from './cctp-repo.js';

/*
 * The relay wallet's own transactions (the mint on the destination, the transfer to the merchant),
 * sent by the relayer engine with the guarantees of outgoing transfers: nonces from the shared
 * allocator, signed bytes stored before they are broadcast and re-broadcast after a restart, a stuck
 * one replaced under the same nonce with higher fees.
 */

/** mint: receiveMessage on the destination; transfer: the relay wallet paying the merchant. */
export type RelayAction = 'mint' | 'transfer';
/** A signed transaction of the relay wallet for one cross-chain payment (cctp_relay_transactions). */
export type RelayTransaction = RelayerTransaction<RelayAction>;

/** Test-only: where the relayer flow kills its own process (CCTP_CRASH_POINT). */
export const crashAt = (ctx: WatcherContext, point: CctpCrashPoint): void =>
  killAt(ctx.logger, { name: 'CCTP_CRASH_POINT', point: ctx.cctp.crashPoint }, point);

/** The transactions of one action of a payment, signed while the payment is at that step. */
export const relaySeries = (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  action: RelayAction,
): RelayerSeries<RelayAction> => ({
  table: CCTP_RELAY_TRANSACTIONS,
  key: { payment_id: p.paymentId, action },
  stillWanted: async (trx) => (await lockCctpPayment(trx, p.paymentId))?.step === action,
  logFields: { paymentId: p.paymentId },
  afterBroadcast: (tx) => crashAt(ctx, tx.action === 'mint' ? 'mint_broadcast' : 'transfer_broadcast'),
});

/** Every transaction of one action of a payment, oldest first. */
export const listRelayTransactions = (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  action: RelayAction,
): Promise<RelayTransaction[]> => listRelayerTransactions<RelayAction>(ctx.db, relaySeries(ctx, p, action));

/**
 * The action's transactions that were mined, once a stored but unsent one was broadcast: a nonce
 * the relay allocated must reach the chain even when its transaction is no longer needed.
 */
export const minedRelayTransactions = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  rpc: ChainRpc,
  txs: RelayTransaction[],
): Promise<Array<Mined<RelayAction>>> => {
  const latest = txs.at(-1);
  if (latest) await flushUnsent(ctx, rpc, relaySeries(ctx, p, latest.action), txs);
  return minedOf(rpc, txs);
};

/** What became of an action's transactions. */
export type RelayProgress =
  | { kind: 'succeeded'; mined: Mined<RelayAction> }
  /** the latest nonce's transaction was mined and reverted: the caller decides what next */
  | { kind: 'reverted'; mined: Mined<RelayAction> }
  | { kind: 'waiting'; note: string };

const WAITING: Record<Exclude<UnminedProgress['kind'], 'sent'>, string> = {
  mined_meanwhile: 'mined just now',
  done_elsewhere: 'done elsewhere',
  renonced: 'signed under a new nonce',
  replaced: 'replaced with higher fees',
  behind: 'waiting behind an earlier relayer nonce',
};

/**
 * One look at an action's transactions: a success or a revert of the latest nonce is the caller's
 * to settle; otherwise the relayer engine follows them. `data` is what a new signature carries: the
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
  const mined = await minedOf(rpc, txs);
  const succeeded = mined.find((m) => m.receipt.status === 1);
  if (succeeded) return { kind: 'succeeded', mined: succeeded };
  const reverted = mined.find((m) => sameNonce(m.tx, latest));
  if (reverted) return { kind: 'reverted', mined: reverted };
  const series = relaySeries(ctx, p, latest.action);
  const progress = await followUnmined(ctx, { rpc, chain, series }, txs, { data });
  const note = progress.kind === 'sent' ? `${latest.action} transaction sent` : WAITING[progress.kind];
  return { kind: 'waiting', note };
};

/**
 * Signs, stores and sends a new transaction of an action whose estimate passed: the first, or one
 * under a new nonce after the previous one reverted (`after` transactions exist).
 */
export const sendRelayTransaction = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  tx: { action: RelayAction; to: string; data: string; gasEstimate: bigint; after: number },
): Promise<CctpOutcome> => {
  const series = relaySeries(ctx, p, tx.action);
  const stored = await storeNewSigned(ctx, rpc, chain, series, {
    ...tx,
    kind: tx.after ? 'renonce' : 'first',
  });
  if (!stored) return waitFor(`another worker sends the ${tx.action}`, { steady: true });
  crashAt(ctx, tx.action === 'mint' ? 'mint_signed' : 'transfer_signed');
  await broadcastSigned(ctx, rpc, series, stored);
  return waitFor(`${tx.action} sent`, { steady: true });
};

/** One relay action's own steps; advanceRelayAction walks them. */
export interface RelayActionSteps {
  action: RelayAction;
  /** the action's exclusivity on-chain says it happened (a message nonce used, an authorization spent) */
  doneOnChain: () => Promise<boolean>;
  /** finds, checks and records the transaction that did it */
  settle: (txs: RelayTransaction[]) => Promise<CctpOutcome | undefined>;
  /** what a new signature of the latest transaction carries */
  calldata: (txs: RelayTransaction[]) => string;
  /** judges and sends a new transaction after `after` others (`reverted`: the latest, which reverted) */
  send: (after: number, reverted?: string) => Promise<CctpOutcome>;
}

/**
 * One look at a relay action. The chain is asked first whether the action happened, before sending
 * and after any restart: once it did, its transaction is found rather than sent again. Otherwise the
 * first transaction is sent, or the relayer engine follows those sent, and one that reverted is
 * answered with a new one.
 */
export const advanceRelayAction = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  to: { rpc: ChainRpc; chain: ChainConfig },
  steps: RelayActionSteps,
): Promise<CctpOutcome | undefined> => {
  const txs = await listRelayTransactions(ctx, p, steps.action);
  if (await steps.doneOnChain()) return steps.settle(txs);
  if (txs.length === 0) return steps.send(0);
  const progress = await followRelayTransactions(ctx, p, to.rpc, to.chain, txs, steps.calldata(txs));
  if (progress.kind === 'waiting') return waitFor(progress.note, { steady: true });
  // A success makes the action done on-chain: the next look settles it.
  if (progress.kind === 'succeeded') return waitFor(`${steps.action} mined`, { steady: true });
  return steps.send(txs.length, progress.mined.tx.txHash);
};
