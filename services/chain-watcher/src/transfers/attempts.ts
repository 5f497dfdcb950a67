import type { TransferCrashPoint } from '../config.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { TRANSFER_ATTEMPTS } from '../migrations/tables.js';
import { killAt } from '../relayer/crash-point.js';
import { listRelayerTransactions, type RelayerTransaction } from '../relayer/relayer-transactions-repo.js';
import type { RelayerSeries } from '../relayer/series.js';
import { recordSubmitted } from './outcomes.js';
import { parts } from './steps.js';
import { lockTransfer, type TransferRecord, type TransferStatus } from './transfers-repo.js';

/** transfer: transferWithAuthorization; cancel: cancelAuthorization of the same nonce */
export type AttemptAction = 'transfer' | 'cancel';
/** A signed relayer transaction of a transfer (a row of transfer_attempts). */
export type AttemptRecord = RelayerTransaction<AttemptAction>;

/** Test-only: where the sender kills its own process (TRANSFER_CRASH_POINT). */
export const crashAt = (ctx: WatcherContext, point: TransferCrashPoint): void =>
  killAt(ctx.logger, { name: 'TRANSFER_CRASH_POINT', point: ctx.transfers.crashPoint }, point);

/**
 * The relayer transactions of a transfer, signed while the transfer is in one of `expect`. Every
 * one calls the transfer's token. The transfer is announced submitted once its first transfer
 * transaction reaches a node.
 */
export const transferSeries = (
  ctx: WatcherContext,
  t: TransferRecord,
  expect: readonly TransferStatus[] = [t.status],
): RelayerSeries<AttemptAction> => ({
  table: TRANSFER_ATTEMPTS,
  key: { transfer_id: t.id },
  fixedTo: parts(t).token,
  stillWanted: async (trx) => expect.includes((await lockTransfer(trx, t.id)).status),
  logFields: { idempotencyKey: t.idempotencyKey },
  onSigned: (tx, chain) =>
    ctx.metrics.transferAttempts.inc({ chain: chain.name, kind: tx.kind, action: tx.action }),
  afterBroadcast: () => crashAt(ctx, 'after_broadcast'),
  onAccepted: async (tx) => {
    if (!t.submittedAt && tx.action === 'transfer') await recordSubmitted(ctx, t, tx.txHash);
  },
});

/** Every attempt of a transfer, oldest first. */
export const listAttempts = (ctx: WatcherContext, t: TransferRecord): Promise<AttemptRecord[]> =>
  listRelayerTransactions<AttemptAction>(ctx.db, transferSeries(ctx, t));
