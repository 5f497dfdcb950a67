import type { ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { CctpCrashPoint } from '../config.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { CCTP_RELAY_TRANSACTIONS } from '../migrations/tables.js';
import { broadcastSigned } from '../relayer/broadcast.js';
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
  const progress = await followUnmined(ctx, rpc, chain, relaySeries(ctx, p, latest.action), txs, { data });
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
