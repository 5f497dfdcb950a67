import { EventTypes, baseUnitsToDecimal, chainById } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import { claimTransaction } from '../../db/claims-repo.js';
import { decide, reschedule, type VerificationRecord } from '../../db/verifications-repo.js';
import { writeEvent, type WatcherContext } from '../context.js';
import { nextCheckDelay, reject, type Outcome } from './rules.js';

type Final = Extract<Outcome, { kind: 'verified' | 'rejected' }>;

/** Thrown inside the verdict transaction to roll it back when another worker decided first. */
class DecidedElsewhere extends Error {}

/**
 * Commits a verdict and its event in one transaction. A verified payment first claims its
 * transaction: if another payment holds it, the verdict becomes `already_claimed`. The guarded
 * UPDATE makes the verdict happen once whatever replicas race for it; the loser rolls back, claim
 * included. Returns whether this call published.
 */
export const recordVerdict = async (
  ctx: WatcherContext,
  v: VerificationRecord,
  outcome: Final,
): Promise<boolean> => {
  let final: Final = outcome;
  const publish = ctx.db.transaction(async (trx) => {
    if (final.kind === 'verified' && !(await claimTransaction(trx, v.chainId, v.txHash, v.paymentId))) {
      const at = { blockNumber: final.blockNumber, blockHash: final.blockHash };
      final = { ...reject('already_claimed', `transaction ${v.txHash} already paid another payment`), ...at };
    }
    const won = await decide(trx, v.paymentId, {
      status: final.kind,
      reason: final.kind === 'rejected' ? final.reason : null,
      receivedUnits: final.receivedUnits,
      detail: final.kind === 'rejected' ? final.detail : null,
      blockNumber: final.blockNumber ?? null,
      blockHash: final.blockHash ?? null,
    });
    // Decided elsewhere: undo this transaction's claim, publish nothing.
    if (!won) throw new DecidedElsewhere();
    if (final.kind === 'verified') {
      await writeEvent(trx, EventTypes.ChainPaymentVerified, v.merchantId, {
        paymentId: v.paymentId,
        txHash: v.txHash,
        chainId: v.chainId,
        token: v.token,
        fromAddress: getAddress(v.fromAddress),
        toAddress: getAddress(final.toAddress),
        receivedAmount: baseUnitsToDecimal(final.receivedUnits),
        blockNumber: final.blockNumber,
        blockTimestamp: final.blockTimestamp.toISOString(),
        confirmations: final.confirmations,
      });
    } else {
      await writeEvent(trx, EventTypes.ChainPaymentRejected, v.merchantId, {
        paymentId: v.paymentId,
        txHash: v.txHash,
        reason: final.reason,
        receivedAmount: final.receivedUnits === null ? null : baseUnitsToDecimal(final.receivedUnits),
        detail: final.detail,
      });
    }
  });
  try {
    await publish;
  } catch (err) {
    if (err instanceof DecidedElsewhere) return false;
    throw err;
  }
  ctx.eventsCommitted();
  const chain = chainById(ctx.registry, v.chainId)?.name ?? String(v.chainId);
  const reason = final.kind === 'rejected' ? final.reason : 'ok';
  ctx.metrics.verdicts.inc({ chain, verdict: final.kind, reason });
  ctx.metrics.verificationLatency.observe(
    { chain, verdict: final.kind },
    Math.max(0, (Date.now() - v.paymentCreatedAt.getTime()) / 1000),
  );
  ctx.logger.info('payment verdict', { paymentId: v.paymentId, chain, verdict: final.kind, reason });
  return true;
};

/** Leaves the payment pending and releases it until its next check. */
export const postpone = async (
  ctx: WatcherContext,
  v: VerificationRecord,
  outcome: Extract<Outcome, { kind: 'wait' }>,
  lastError: string | null = null,
): Promise<void> => {
  const chain = chainById(ctx.registry, v.chainId);
  const { delayMs, backoffStep } = nextCheckDelay({
    why: outcome.why,
    backoffStep: v.backoffStep,
    pollMs: ctx.verification.pollMs,
    maxBackoffMs: ctx.verification.maxBackoffMs,
    blockTimeMs: chain?.blockTimeMs,
    msUntilNotFound: v.paymentCreatedAt.getTime() + ctx.verification.txNotFoundAfterMs - Date.now(),
  });
  // An RPC failure says nothing about the block: keep what was seen before.
  const keep = outcome.why === 'rpc';
  await reschedule(ctx.db, v.paymentId, {
    delayMs,
    backoffStep,
    blockNumber: keep ? v.blockNumber : outcome.blockNumber,
    blockHash: keep ? v.blockHash : outcome.blockHash,
    lastError: lastError ?? (outcome.why === 'confirmations' ? null : outcome.detail),
  });
};
