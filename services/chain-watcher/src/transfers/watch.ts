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
import { listAttempts, type AttemptRecord } from '../relayer/attempts-repo.js';
import type { TransferRecord } from './transfers-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { broadcastAttempt } from './attempts.js';
import { recordConfirmed, recordFailed } from './outcomes.js';
import { judgeRefusal, waitOnToken } from './refusals.js';
import { pausedNote } from './rules.js';
import { beginCancel, resign } from './send.js';
import { DONE, again, parts, type Step } from './steps.js';

const OPEN = ['pending', 'sending', 'cancelling'] as const;

/** Node refusals that a higher fee answers. */
const UNDERPRICED = /underpriced|fee.*(too low|less than)|base fee|gas price.*(too low|below)/i;

interface Mined {
  attempt: AttemptRecord;
  receipt: ReceiptFacts;
}

/** Receipts of every attempt: replacements share a nonce, so at most one of those is ever mined. */
const minedAttempts = async (rpc: ChainRpc, attempts: AttemptRecord[]): Promise<Mined[]> => {
  const receipts = await Promise.all(attempts.map((a) => rpc.receipt(a.txHash)));
  return attempts.flatMap((attempt, i) => (receipts[i] ? [{ attempt, receipt: receipts[i] }] : []));
};

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
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  /** our transaction that reverted because of it, if any */
  revertedTxHash: string | null = t.txHash,
): Promise<Step> => {
  const { from, token } = parts(t);
  const head = await rpc.blockNumber();
  const window = ctx.transfers.logWindowBlocks;
  const fromBlock = t.searchFromBlock ?? Math.max(0, head - 10 * window);
  const found = await findAuthorizationEvent(rpc, token, from, t.authNonce, fromBlock, head, window);
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

/** Whether a mined attempt carries the latest attempt's relayer nonce (a replacement shares it). */
const ofLatestNonce = (m: Mined, latest: AttemptRecord): boolean =>
  m.attempt.relayerNonce === latest.relayerNonce && m.attempt.relayerAddress === latest.relayerAddress;

/** What a mined attempt decides, once final. */
const settle = async (
  ctx: WatcherContext,
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  attempts: AttemptRecord[],
  mined: Mined[],
): Promise<Step> => {
  // A successful transfer wins over everything, then a successful cancellation. A revert counts
  // when it is news: that of the latest attempt's nonce, in the transfer's current action (an
  // older reverted one was already answered with a new attempt).
  const latest = attempts.at(-1)!;
  const action = t.status === 'sending' ? 'transfer' : 'cancel';
  const decisive =
    mined.find((m) => m.attempt.action === 'transfer' && m.receipt.status === 1) ??
    mined.find((m) => m.attempt.action === 'cancel' && m.receipt.status === 1) ??
    mined.find((m) => m.attempt.action === action && ofLatestNonce(m, latest));
  if (!decisive) return watchUnmined(ctx, t, rpc, chain, attempts);
  const { attempt, receipt } = decisive;
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
  return settleRevert(ctx, t, rpc, chain, attempts, decisive);
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
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  attempts: AttemptRecord[],
  { attempt, receipt }: Mined,
): Promise<Step> => {
  const { from, token } = parts(t);
  if (await authorizationState(rpc, token, from, t.authNonce)) {
    return resolveSpent(ctx, t, rpc, chain, attempt.action === 'transfer' ? attempt.txHash : t.txHash);
  }
  const refusal = await simulateTokenCall(rpc, token, Transaction.from(attempt.rawTx).data);
  if (refusal?.kind === 'paused') return waitOnToken(ctx, t, pausedNote(t.token, chain.name));
  if (attempt.action === 'cancel' || (!refusal && (await pausedAt(rpc, token, receipt.blockNumber)))) {
    // A cancellation that reverted (out of gas, say), or a transfer the pause reverted and that would
    // pass now: the same calldata once more, under the relayer's next nonce.
    const resent = await resign(ctx, t, rpc, chain, attempts, 'renonce');
    if (resent) await broadcastAttempt(ctx, t, rpc, resent);
    return again(ctx);
  }
  const verdict = refusal
    ? await judgeRefusal(t, rpc, chain, refusal, { txHash: attempt.txHash })
    : undefined;
  return beginCancel(ctx, t, rpc, chain, attempts, {
    code: verdict?.kind === 'fail' ? verdict.code : 'reverted',
    reason:
      verdict?.kind === 'fail'
        ? verdict.reason
        : `the transfer transaction reverted on ${chain.name} (transaction ${attempt.txHash})`,
    txHash: attempt.txHash,
  });
};

/**
 * Nothing decisive is mined. The latest attempt is broadcast if it never was; once it has waited
 * TRANSFER_STUCK_AFTER_MS: replaced with higher fees if its nonce is the relayer's next one (and
 * fees are what keeps it out), signed under a new nonce if that nonce went to a transaction not
 * ours, and otherwise (an earlier nonce of the relayer is holding it up) broadcast again in case a
 * node dropped it.
 */
const watchUnmined = async (
  ctx: WatcherContext,
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  attempts: AttemptRecord[],
): Promise<Step> => {
  const latest = attempts.at(-1)!;
  const waited = Date.now() - (latest.broadcastAt ?? latest.signedAt).getTime();
  if (waited < ctx.transfers.stuckAfterMs) {
    if (!latest.broadcastAt) await broadcastAttempt(ctx, t, rpc, latest);
    return again(ctx);
  }
  const minedNonce = await rpc.transactionCount(latest.relayerAddress, 'latest');
  if (minedNonce > latest.relayerNonce) {
    // A block may have landed between the receipts and the count: look again before concluding.
    const sameNonce = attempts.filter(
      (a) => a.relayerNonce === latest.relayerNonce && a.relayerAddress === latest.relayerAddress,
    );
    if ((await minedAttempts(rpc, sameNonce)).length > 0) return again(ctx, null, 0);
    if (await authorizationState(rpc, parts(t).token, parts(t).from, t.authNonce)) {
      return resolveSpent(ctx, t, rpc, chain);
    }
    ctx.logger.warn('relayer nonce taken by a transaction not ours: signing under a new nonce', {
      idempotencyKey: t.idempotencyKey,
      relayer: latest.relayerAddress,
      relayerNonce: latest.relayerNonce,
    });
    const renonced = await resign(ctx, t, rpc, chain, attempts, 'renonce');
    if (renonced) await broadcastAttempt(ctx, t, rpc, renonced);
    return again(ctx);
  }
  // Never accepted by a node for a reason higher fees do not cure (the relayer has no gas, say):
  // the same bytes again, rather than ever higher fees.
  const feesCure = latest.broadcastAt !== null || UNDERPRICED.test(latest.lastBroadcastError ?? '');
  if (minedNonce === latest.relayerNonce && feesCure) {
    const replacement = await resign(ctx, t, rpc, chain, attempts, 'replacement');
    if (replacement) {
      ctx.logger.warn('relayer transaction stuck: replaced with higher fees', {
        idempotencyKey: t.idempotencyKey,
        chain: chain.name,
        stuck: latest.txHash,
        replacement: replacement.txHash,
        waitedMs: waited,
      });
      await broadcastAttempt(ctx, t, rpc, replacement);
      return again(ctx);
    }
  }
  await broadcastAttempt(ctx, t, rpc, latest);
  return again(ctx, 'waiting behind an earlier relayer nonce');
};

/** One look at a transfer whose transactions are signed: every attempt's hash is watched. */
export const watchTransfer = async (
  ctx: WatcherContext,
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
): Promise<Step> => {
  const attempts = await listAttempts(ctx.db, t.id);
  if (attempts.length === 0) throw new Error(`transfer ${t.id} is ${t.status} without any transaction`);
  const mined = await minedAttempts(rpc, attempts);
  if (mined.length > 0) return settle(ctx, t, rpc, chain, attempts, mined);
  return watchUnmined(ctx, t, rpc, chain, attempts);
};
