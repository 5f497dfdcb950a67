import { EventTypes, baseUnitsToDecimal, chainById } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import { errorText, runWithContext } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { PAYMENT_CHECKS, decideChecks } from './checks-repo.js';
import { claimTransactions } from './claims-repo.js';
import {
  DecidedElsewhere,
  claimedElsewhere,
  commitVerdict,
  decisionOf,
  verdictEventOf,
  type VerdictRules,
} from './verdict-commit.js';
import type { Final } from './rules.js';
import { journalVerdicts } from './verdict-journals.js';
import type { VerificationRecord } from './verifications-repo.js';

/**
 * Whether the verdict takes the transaction for its payment: a verified one, and an underpaid one
 * that received money (what arrived is that payment's to refund or top up, so no other payment may
 * count it too).
 */
const claims = (final: Final): boolean =>
  final.kind === 'verified' ||
  (final.reason === 'underpaid' && final.receivedUnits !== null && final.receivedUnits > 0n);

/** The event a verdict publishes, built (and checked against the catalogue) for the outbox. */
const verdictEvent = (v: VerificationRecord, final: Final) =>
  final.kind === 'verified'
    ? verdictEventOf(v, EventTypes.ChainPaymentVerified, {
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
      })
    : verdictEventOf(v, EventTypes.ChainPaymentRejected, {
        paymentId: v.paymentId,
        txHash: v.txHash,
        reason: final.reason,
        receivedAmount: final.receivedUnits === null ? null : baseUnitsToDecimal(final.receivedUnits),
        detail: final.detail,
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

/** A payment's verdict: verifications, by payment. */
export const PAYMENT_VERDICTS: VerdictRules<VerificationRecord> = {
  checks: PAYMENT_CHECKS,
  idOf: (v) => v.paymentId,
  claims,
  event: (v, final) => verdictEvent(v, final),
  after: afterVerdict,
};

/** Commits one payment's verdict (see commitVerdict). */
export const recordVerdict = (ctx: WatcherContext, v: VerificationRecord, outcome: Final): Promise<boolean> =>
  commitVerdict(ctx, PAYMENT_VERDICTS, v, outcome);

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
        const won = await decideChecks(
          trx,
          PAYMENT_CHECKS,
          verdicts.map(({ v }, i) => ({ id: v.paymentId, decision: decisionOf(decided[i]!) })),
        );
        if (won.size !== verdicts.length) throw new DecidedElsewhere();
        await journalVerdicts(
          trx,
          verdicts.map(({ v }, i) => ({ v, final: decided[i]! })),
        );
        await ctx.writeEvents(
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
