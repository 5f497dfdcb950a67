import type { ChainConfig } from '@stablepay/contracts';
import { Transaction } from 'ethers';
import type { ChainRpc } from '../chain/chain-rpc.js';
import {
  authorizationState,
  findAuthorizationEvent,
  pausedAt,
  simulateTokenCall,
} from '../chain/fiat-token.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { broadcastSigned } from '../relayer/broadcast.js';
import { followUnmined, minedOf, resign, sameNonce, type Mined } from '../relayer/follow.js';
import { listAttempts, transferSeries, type AttemptAction, type AttemptRecord } from './attempts.js';
import { recordConfirmed, recordFailed } from './outcomes.js';
import { judgeRefusal, waitOnToken } from './refusals.js';
import { pausedNote } from './rules.js';
import { beginCancel } from './send.js';
import { DONE, again, parts, type Step, type TransferOnChain } from './steps.js';

const OPEN = ['pending', 'sending', 'cancelling'] as const;

type MinedAttempt = Mined<AttemptAction>;

/** `confirmations` deep (the including block counting as one) and still on the canonical chain. */
const isFinal = async (rpc: ChainRpc, chain: ChainConfig, receipt: ReceiptFacts): Promise<boolean> => {
  const head = await rpc.blockNumber();
  if (head - receipt.blockNumber + 1 < chain.confirmations) return false;
  const block = await rpc.block(receipt.blockNumber);
  return block?.hash === receipt.blockHash;
};

/**
 * The authorization nonce is spent, and not by a mined attempt we know of: find the transaction that
 * spent it. A transfer (AuthorizationUsed) is this key's transfer, whoever sent it: only this
 * service signs that nonce, always for the same transfer. A cancellation means nothing moved.
 */
export const resolveSpent = async (
  ctx: WatcherContext,
  { t, rpc, chain }: TransferOnChain,
  /** our transaction that reverted because of it, if any */
  revertedTxHash: string | null = t.txHash,
): Promise<Step> => {
  const { from, token } = parts(t);
  const head = await rpc.blockNumber();
  const window = ctx.transfers.logWindowBlocks;
  const fromBlock = t.searchFromBlock ?? Math.max(0, head - 10 * window);
  const found = await findAuthorizationEvent(rpc, {
    token,
    authorizer: from,
    nonce: t.authNonce,
    fromBlock,
    toBlock: head,
    maxBlocks: window,
  });
  if (!found) {
    ctx.logger.error('authorization nonce spent, but no transaction found that spent it', {
      idempotencyKey: t.idempotencyKey,
      chain: chain.name,
      fromBlock,
    });
    await recordFailed(ctx, t, [...OPEN], {
      code: 'unknown',
      reason: `the authorization of this transfer is spent on ${chain.name}, but no transaction that spent it was found after block ${fromBlock}; check the wallet before trying again`,
      txHash: revertedTxHash,
    });
    return DONE;
  }
  const receipt = await rpc.receipt(found.txHash);
  if (!receipt || !(await isFinal(rpc, chain, receipt))) return again(ctx, 'waiting for confirmations');
  if (found.kind === 'used') {
    await recordConfirmed(ctx, t, {
      txHash: found.txHash,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
    });
    return DONE;
  }
  const ours = t.status === 'cancelling' && t.failureCode && t.failureReason;
  await recordFailed(
    ctx,
    t,
    [...OPEN],
    ours
      ? { code: t.failureCode!, reason: t.failureReason!, txHash: t.txHash }
      : {
          code: 'reverted',
          reason: `the authorization of this transfer was cancelled on ${chain.name} (transaction ${found.txHash}); nothing was transferred`,
          txHash: revertedTxHash,
        },
  );
  return DONE;
};

/** What a mined attempt decides, once final. */
const settle = async (
  ctx: WatcherContext,
  job: TransferOnChain,
  attempts: AttemptRecord[],
  mined: MinedAttempt[],
): Promise<Step> => {
  const { t, rpc, chain } = job;
  // A successful transfer wins over everything, then a successful cancellation. A revert counts
  // when it is news: that of the latest attempt's nonce, in the transfer's current action (an
  // older reverted one was already answered with a new attempt).
  const latest = attempts.at(-1)!;
  const action = t.status === 'sending' ? 'transfer' : 'cancel';
  const decisive =
    mined.find((m) => m.tx.action === 'transfer' && m.receipt.status === 1) ??
    mined.find((m) => m.tx.action === 'cancel' && m.receipt.status === 1) ??
    mined.find((m) => m.tx.action === action && sameNonce(m.tx, latest));
  if (!decisive) return watchUnmined(ctx, job, attempts);
  const { tx: attempt, receipt } = decisive;
  if (!(await isFinal(rpc, chain, receipt))) return again(ctx, 'waiting for confirmations');
  const at = { txHash: attempt.txHash, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
  if (attempt.action === 'transfer' && receipt.status === 1) {
    await recordConfirmed(ctx, t, at);
    return DONE;
  }
  if (attempt.action === 'cancel' && receipt.status === 1) {
    await recordFailed(ctx, t, ['cancelling'], {
      code: t.failureCode ?? 'reverted',
      reason: t.failureReason ?? 'the transfer reverted',
      txHash: t.txHash,
    });
    return DONE;
  }
  return settleRevert(ctx, job, attempts, decisive);
};

/**
 * The latest attempt reverted. With the authorization spent, an attempt of this key may have
 * succeeded elsewhere, or the wallet's key cancelled it: the logs tell. Otherwise the token is asked
 * what it says to the same calldata now: paused, the transfer waits (a cancellation would be refused
 * as well) and, once unpaused, is sent again if a pause is what reverted it; refused for good, the
 * authorization is cancelled and the transfer fails with the token's reason.
 */
const settleRevert = async (
  ctx: WatcherContext,
  job: TransferOnChain,
  attempts: AttemptRecord[],
  { tx: attempt, receipt }: MinedAttempt,
): Promise<Step> => {
  const { t, rpc, chain } = job;
  const { from, token } = parts(t);
  if (await authorizationState(rpc, token, from, t.authNonce)) {
    return resolveSpent(ctx, job, attempt.action === 'transfer' ? attempt.txHash : t.txHash);
  }
  const refusal = await simulateTokenCall(rpc, token, Transaction.from(attempt.rawTx).data);
  if (refusal?.kind === 'paused') return waitOnToken(ctx, t, pausedNote(t.token, chain.name));
  if (attempt.action === 'cancel' || (!refusal && (await pausedAt(rpc, token, receipt.blockNumber)))) {
    // A cancellation that reverted (out of gas, say), or a transfer the pause reverted and that would
    // pass now: the same calldata once more, under the relayer's next nonce.
    const series = transferSeries(ctx, t);
    const resent = await resign(ctx, { rpc, chain, series }, attempts, 'renonce', calldataOf(attempts));
    if (resent) await broadcastSigned(ctx, rpc, series, resent);
    return again(ctx);
  }
  const verdict = refusal ? await judgeRefusal(job, refusal, { txHash: attempt.txHash }) : undefined;
  return beginCancel(ctx, job, attempts, {
    code: verdict?.kind === 'fail' ? verdict.code : 'reverted',
    reason:
      verdict?.kind === 'fail'
        ? verdict.reason
        : `the transfer transaction reverted on ${chain.name} (transaction ${attempt.txHash})`,
    txHash: attempt.txHash,
  });
};

/** What the latest attempt asked of the token: a new signature carries it unchanged. */
const calldataOf = (attempts: AttemptRecord[]): string => Transaction.from(attempts.at(-1)!.rawTx).data;

/**
 * Nothing decisive is mined: the relayer engine follows the latest attempt (broadcast, replaced,
 * renonced). Before a new nonce, the authorization is asked first: spent, someone else's
 * transaction settled it.
 */
const watchUnmined = async (
  ctx: WatcherContext,
  job: TransferOnChain,
  attempts: AttemptRecord[],
): Promise<Step> => {
  const { t, rpc, chain } = job;
  const { from, token } = parts(t);
  const progress = await followUnmined(ctx, { rpc, chain, series: transferSeries(ctx, t) }, attempts, {
    data: calldataOf(attempts),
    doneElsewhere: () => authorizationState(rpc, token, from, t.authNonce),
  });
  switch (progress.kind) {
    case 'mined_meanwhile':
      return again(ctx, null, 0);
    case 'done_elsewhere':
      return resolveSpent(ctx, job);
    case 'behind':
      return again(ctx, 'waiting behind an earlier relayer nonce');
    default:
      return again(ctx);
  }
};

/** One look at a transfer whose transactions are signed: every attempt's hash is watched. */
export const watchTransfer = async (ctx: WatcherContext, job: TransferOnChain): Promise<Step> => {
  const { t, rpc } = job;
  const attempts = await listAttempts(ctx, t);
  if (attempts.length === 0) throw new Error(`transfer ${t.id} is ${t.status} without any transaction`);
  const mined = await minedOf(rpc, attempts);
  if (mined.length > 0) return settle(ctx, job, attempts, mined);
  return watchUnmined(ctx, job, attempts);
};
