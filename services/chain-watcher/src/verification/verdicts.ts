import { EventTypes, baseUnitsToDecimal, chainById } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import { buildEvent, enqueueEvent, enqueueEvents, errorText, runWithContext } from '@stablepay/platform';
import { claimTransaction, claimTransactions } from './claims-repo.js';
import {
  decide,
  decideMany,
  rescheduleMany,
  type Decision,
  type VerificationRecord,
} from './verifications-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { nextCheckDelay, reject, type Outcome } from './rules.js';
import { journalVerdict, journalVerdicts } from './verdict-journals.js';

type Final = Extract<Outcome, { kind: 'verified' | 'rejected' }>;

/**
 * Whether the verdict takes the transaction for its payment: a verified one, and an underpaid one
 * that received money (what arrived is that payment's to refund or top up, so no other payment may
 * count it too).
 */
const claims = (final: Final): boolean =>
  final.kind === 'verified' ||
  (final.reason === 'underpaid' && final.receivedUnits !== null && final.receivedUnits > 0n);

/** Thrown inside the verdict transaction to roll it back when another worker decided first. */
class DecidedElsewhere extends Error {}

/**
 * Commits a verdict and its event in one transaction. A verified (or underpaid) payment first claims its
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
    if (claims(final) && !(await claimTransaction(trx, v.chainId, v.txHash, v.paymentId))) {
      final = claimedElsewhere(v, final);
    }
    const won = await decide(trx, v.paymentId, decisionOf(final));
    // Decided elsewhere: undo this transaction's claim, publish nothing.
    if (!won) throw new DecidedElsewhere();
    await journalVerdict(trx, v, final);
    await enqueueEvent(trx, verdictEvent(v, final));
  });
  try {
    await publish;
  } catch (err) {
    if (err instanceof DecidedElsewhere) return false;
    throw err;
  }
  ctx.eventsCommitted();
  afterVerdict(ctx, v, final);
  return true;
};

/** The event a verdict publishes, built (and checked against the catalogue) for the outbox. */
const verdictEvent = (v: VerificationRecord, final: Final) =>
  final.kind === 'verified'
    ? buildEvent({
        type: EventTypes.ChainPaymentVerified,
        producer: 'chain-watcher',
        merchantId: v.merchantId,
        correlationId: v.correlationId ?? undefined,
        data: {
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
        },
      })
    : buildEvent({
        type: EventTypes.ChainPaymentRejected,
        producer: 'chain-watcher',
        merchantId: v.merchantId,
        correlationId: v.correlationId ?? undefined,
        data: {
          paymentId: v.paymentId,
          txHash: v.txHash,
          reason: final.reason,
          receivedAmount: final.receivedUnits === null ? null : baseUnitsToDecimal(final.receivedUnits),
          detail: final.detail,
        },
      });

const decisionOf = (final: Final): Decision => ({
  status: final.kind,
  reason: final.kind === 'rejected' ? final.reason : null,
  receivedUnits: final.receivedUnits,
  detail: final.kind === 'rejected' ? final.detail : null,
  blockNumber: final.blockNumber ?? null,
  blockHash: final.blockHash ?? null,
});

/** An outcome whose transaction another payment holds becomes `already_claimed`. */
const claimedElsewhere = (v: VerificationRecord, final: Final): Final => ({
  ...reject('already_claimed', `transaction ${v.txHash} already paid another payment`),
  blockNumber: final.blockNumber,
  blockHash: final.blockHash,
});

/** What follows a committed verdict: its metrics and its log line. */
const afterVerdict = (ctx: WatcherContext, v: VerificationRecord, final: Final): void => {
  const chain = chainById(ctx.registry, v.chainId)?.name ?? String(v.chainId);
  const reason = final.kind === 'rejected' ? final.reason : 'ok';
  ctx.metrics.verdicts.inc({ chain, verdict: final.kind, reason });
  ctx.metrics.verificationLatency.observe(
    { chain, verdict: final.kind },
    Math.max(0, (Date.now() - v.paymentCreatedAt.getTime()) / 1000),
  );
  ctx.logger.info('payment verdict', {
    paymentId: v.paymentId,
    chain,
    verdict: final.kind,
    reason,
    ...(v.correlationId ? { correlationId: v.correlationId } : {}),
  });
};

export interface PendingVerdict {
  v: VerificationRecord;
  outcome: Final;
}

/**
 * The verdicts of one pass, committed together: the claims, the guarded transitions and their
 * events in one transaction of four statements, whatever the number of payments, instead of one
 * transaction of five round trips each (plus the ledger's journals, a few statements per
 * Transfer log that reached a merchant wallet). Should any payment of the batch have been decided
 * elsewhere (a replica racing on an expired lease), or the transaction fail, nothing of it stays
 * and every verdict is recorded on its own with recordVerdict, which sorts the race out row by row.
 */
export const recordVerdicts = async (
  ctx: WatcherContext,
  verdicts: readonly PendingVerdict[],
): Promise<void> => {
  if (verdicts.length === 0) return;
  let finals: Final[] | undefined;
  if (verdicts.length > 1) {
    try {
      finals = await ctx.db.transaction(async (trx) => {
        const holding = await claimTransactions(
          trx,
          verdicts
            .filter(({ outcome }) => claims(outcome))
            .map(({ v }) => ({ chainId: v.chainId, txHash: v.txHash, paymentId: v.paymentId })),
        );
        const decided = verdicts.map(({ v, outcome }) =>
          claims(outcome) && !holding.has(v.paymentId) ? claimedElsewhere(v, outcome) : outcome,
        );
        const won = await decideMany(
          trx,
          verdicts.map(({ v }, i) => ({ paymentId: v.paymentId, decision: decisionOf(decided[i]!) })),
        );
        if (won.size !== verdicts.length) throw new DecidedElsewhere();
        await journalVerdicts(
          trx,
          verdicts.map(({ v }, i) => ({ v, final: decided[i]! })),
        );
        await enqueueEvents(
          trx,
          verdicts.map(({ v }, i) => verdictEvent(v, decided[i]!)),
        );
        return decided;
      });
    } catch (err) {
      if (!(err instanceof DecidedElsewhere)) {
        ctx.logger.warn('verdict batch failed; recording one by one', {
          size: verdicts.length,
          err: errorText(err),
        });
      }
    }
  }
  if (finals) {
    ctx.eventsCommitted();
    verdicts.forEach(({ v }, i) => afterVerdict(ctx, v, finals[i]!));
    return;
  }
  for (const { v, outcome } of verdicts) {
    await runWithContext({ correlationId: v.correlationId ?? undefined }, () =>
      recordVerdict(ctx, v, outcome),
    ).catch((err: unknown) =>
      ctx.logger.warn('could not record verdict; the lease will run out', {
        paymentId: v.paymentId,
        err: errorText(err),
      }),
    );
  }
};

export type Wait = Extract<Outcome, { kind: 'wait' }>;

/** When to look at a payment that stays pending again, and what to remember of this look. */
export const rescheduleOf = (ctx: WatcherContext, v: VerificationRecord, outcome: Wait) => {
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
  return {
    delayMs,
    backoffStep,
    blockNumber: keep ? v.blockNumber : outcome.blockNumber,
    blockHash: keep ? v.blockHash : outcome.blockHash,
    lastError: outcome.why === 'confirmations' ? null : outcome.detail,
  };
};

/**
 * Leaves the payments of a pass that stay pending and releases them until their next check, in
 * one statement.
 */
export const postponeAll = async (
  ctx: WatcherContext,
  waits: ReadonlyArray<{ v: VerificationRecord; outcome: Wait }>,
): Promise<void> => {
  await rescheduleMany(
    ctx.db,
    waits.map(({ v, outcome }) => ({ paymentId: v.paymentId, ...rescheduleOf(ctx, v, outcome) })),
  );
};
