import type { Knex } from 'knex';
import { EventTypes, type TransferFailureReason } from '@stablepay/contracts';
import {
  OPEN_STATUSES,
  finishTransfer,
  markSubmitted,
  type TransferEnd,
  type TransferRecord,
  type TransferStatus,
} from './transfers-repo.js';
import { recordTransferOut } from '../ledger/journals.js';
import { networkFeeGasPaid, recordNetworkFeeGas } from '../gasless/network-fee-gas.js';
import type { WatcherContext } from '../context/watcher-context.js';

/*
 * Every outcome is a guarded state change and its outbox event in one transaction: whatever workers
 * race, each event is written once. `transfer.submitted` commits in a transaction of its own before
 * any final outcome, so the relay (ordered by creation time) publishes it first.
 */

/** transfer.submitted, once per transfer: the first transaction known to have reached a node. */
export const recordSubmitted = async (
  ctx: WatcherContext,
  t: TransferRecord,
  txHash: string,
): Promise<boolean> => {
  const written = await ctx.db.transaction(async (trx) => {
    if (!(await markSubmitted(trx, t.id))) return false;
    await ctx.writeEvent(trx, EventTypes.TransferSubmitted, t.merchantId, {
      idempotencyKey: t.idempotencyKey,
      purpose: t.purpose,
      txHash,
      blockchain: t.blockchain,
    });
    return true;
  });
  if (written) {
    ctx.logger.info('transfer submitted', { idempotencyKey: t.idempotencyKey, chain: t.blockchain, txHash });
  }
  return written;
};

/** How a transfer ended, as far as its final event tells. */
type Outcome =
  | { status: 'confirmed'; txHash: string; blockNumber: number }
  | { status: 'failed'; code: TransferFailureReason; reason: string; txHash: string | null };

type Requested = Pick<TransferRecord, 'merchantId' | 'idempotencyKey' | 'purpose'>;

/** transfer.confirmed or transfer.failed, in the caller's transaction. */
const writeOutcome = (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  t: Requested,
  end: Outcome,
): Promise<void> => {
  const about = { idempotencyKey: t.idempotencyKey, purpose: t.purpose };
  if (end.status === 'confirmed') {
    const { txHash, blockNumber } = end;
    return ctx.writeEvent(trx, EventTypes.TransferConfirmed, t.merchantId, { ...about, txHash, blockNumber });
  }
  const { code, reason, txHash } = end;
  return ctx.writeEvent(trx, EventTypes.TransferFailed, t.merchantId, { ...about, reason, code, txHash });
};

/** The ledger's record of the tokens a confirmed transfer took out of the merchant wallet. */
const journalTransferOut = async (
  trx: Knex.Transaction,
  t: TransferRecord,
  mined: { txHash: string; blockNumber: number },
): Promise<void> => {
  if (t.chainId === null || t.fromAddress === null || t.amountUnits === null) return;
  await recordTransferOut(trx, {
    merchantId: t.merchantId,
    chainId: t.chainId,
    blockchain: t.blockchain,
    token: t.token,
    walletAddress: t.fromAddress,
    idempotencyKey: t.idempotencyKey,
    purpose: t.purpose,
    txHash: mined.txHash,
    blockNumber: mined.blockNumber,
    amount: t.amountUnits,
  });
};

/**
 * The one transition out of an open state `from`, with its event, metrics and log line; false when
 * another worker made it.
 */
const finish = async (
  ctx: WatcherContext,
  t: TransferRecord,
  from: TransferStatus[],
  end: TransferEnd,
): Promise<boolean> => {
  // Read before the transaction: receipts are RPC calls.
  const relayGasWei = await networkFeeGasPaid(ctx, t);
  const written = await ctx.db.transaction(async (trx) => {
    if (!(await finishTransfer(trx, t.id, from, end))) return false;
    if (end.status === 'confirmed') await journalTransferOut(trx, t, end);
    await recordNetworkFeeGas(ctx, trx, t, relayGasWei);
    await writeOutcome(ctx, trx, t, end);
    return true;
  });
  if (!written) return false;
  ctx.metrics.transferOutcomes.inc({
    chain: t.blockchain,
    outcome: end.status,
    code: end.status === 'confirmed' ? 'ok' : end.code,
  });
  ctx.metrics.transferLatency.observe(
    { chain: t.blockchain, outcome: end.status },
    Math.max(0, (Date.now() - t.createdAt.getTime()) / 1000),
  );
  const { status, ...how } = end;
  const log = { idempotencyKey: t.idempotencyKey, chain: t.blockchain, ...how };
  if (status === 'confirmed') ctx.logger.info('transfer confirmed', log);
  else ctx.logger.warn('transfer failed', log);
  return true;
};

/** transfer.confirmed with the transaction that moved the tokens, `confirmations` deep. */
export const recordConfirmed = async (
  ctx: WatcherContext,
  t: TransferRecord,
  mined: { txHash: string; blockNumber: number; blockHash: string },
): Promise<boolean> => {
  if (!t.submittedAt) await recordSubmitted(ctx, t, mined.txHash);
  return finish(ctx, t, OPEN_STATUSES, { status: 'confirmed', ...mined });
};

/** transfer.failed from one of the open states `from`. */
export const recordFailed = async (
  ctx: WatcherContext,
  t: TransferRecord,
  from: TransferStatus[],
  failure: { code: TransferFailureReason; reason: string; txHash: string | null },
): Promise<boolean> => {
  return finish(ctx, t, from, { status: 'failed', ...failure });
};

/** transfer.failed for a command refused before anything was stored as open. */
export const writeFailedEvent = (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  t: Requested,
  failure: { code: TransferFailureReason; reason: string; txHash: string | null },
): Promise<void> => writeOutcome(ctx, trx, t, { status: 'failed', ...failure });

/**
 * The known outcome of a finished transfer, written again (a requester asked again after the
 * answer). Returns false for a transfer still open: its outcome is published when it comes.
 */
export const republishOutcome = async (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  t: TransferRecord,
): Promise<boolean> => {
  if (t.status === 'confirmed' && t.txHash && t.blockNumber !== null) {
    await writeOutcome(ctx, trx, t, { status: 'confirmed', txHash: t.txHash, blockNumber: t.blockNumber });
    return true;
  }
  if (t.status === 'failed') {
    await writeOutcome(ctx, trx, t, {
      status: 'failed',
      code: t.failureCode ?? 'unknown',
      reason: t.failureReason ?? 'the transfer failed',
      txHash: t.txHash,
    });
    return true;
  }
  return false;
};
