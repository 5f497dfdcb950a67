import { chainById, type EventDataInput, type EventType, type IntegrationEvent } from '@stablepay/contracts';
import { buildEvent } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { decideChecks, rescheduleChecks, type CheckTable, type Decision } from './checks-repo.js';
import { claimTransaction } from './claims-repo.js';
import { nextCheckDelay, reject, type Final, type Wait } from './rules.js';
import { journalVerdict } from './verdict-journals.js';
import type { VerificationRecord } from './verifications-repo.js';

/*
 * How a checked transaction reaches its verdict, the same for a payment's transaction and a
 * top-up's: the claim of the transaction, the guarded transition, the ledger's journals and the
 * event, in one database transaction.
 */

/** What differs between a payment's verdict and a top-up's. */
export interface VerdictRules<V extends VerificationRecord> {
  checks: CheckTable;
  idOf: (v: V) => string;
  /** whether the verdict takes the transaction for the payment (no other payment may count it) */
  claims: (final: Final) => boolean;
  event: (v: V, final: Final) => IntegrationEvent;
  /** metrics and the log line of a committed verdict */
  after: (ctx: WatcherContext, v: V, final: Final) => void;
}

/** An event of a verdict, under the correlation id of the message that reported the transaction. */
export const verdictEventOf = <T extends EventType>(
  v: VerificationRecord,
  type: T,
  data: EventDataInput<T>,
): IntegrationEvent<T> =>
  buildEvent<T>({
    type,
    producer: 'chain-watcher',
    merchantId: v.merchantId,
    correlationId: v.correlationId ?? undefined,
    data,
  });

/** Thrown inside the verdict transaction to roll it back when another worker decided first. */
export class DecidedElsewhere extends Error {}

export const decisionOf = (final: Final): Decision => ({
  status: final.kind,
  reason: final.kind === 'rejected' ? final.reason : null,
  receivedUnits: final.receivedUnits,
  detail: final.kind === 'rejected' ? final.detail : null,
  blockNumber: final.blockNumber ?? null,
  blockHash: final.blockHash ?? null,
});

/** An outcome whose transaction another payment holds becomes `already_claimed`. */
export const claimedElsewhere = (v: VerificationRecord, final: Final): Final => ({
  ...reject('already_claimed', `transaction ${v.txHash} already paid another payment`),
  blockNumber: final.blockNumber,
  blockHash: final.blockHash,
});

/**
 * Commits a verdict and its event in one transaction. A verdict that claims first takes its
 * transaction: if another payment holds it, the verdict becomes `already_claimed`. The guarded
 * UPDATE makes the verdict happen once whatever replicas race for it; the loser rolls back, claim
 * included. Returns whether this call published.
 */
export const commitVerdict = async <V extends VerificationRecord>(
  ctx: WatcherContext,
  rules: VerdictRules<V>,
  v: V,
  outcome: Final,
): Promise<boolean> => {
  let final: Final = outcome;
  try {
    await ctx.db.transaction(async (trx) => {
      if (rules.claims(final) && !(await claimTransaction(trx, v.chainId, v.txHash, v.paymentId))) {
        final = claimedElsewhere(v, final);
      }
      const won = await decideChecks(trx, rules.checks, [{ id: rules.idOf(v), decision: decisionOf(final) }]);
      // Decided elsewhere: undo this transaction's claim, publish nothing.
      if (won.size !== 1) throw new DecidedElsewhere();
      await journalVerdict(trx, v, final);
      await ctx.writeEvents(trx, [rules.event(v, final)]);
    });
  } catch (err) {
    if (err instanceof DecidedElsewhere) return false;
    throw err;
  }
  rules.after(ctx, v, final);
  return true;
};

/** When to look at a row that stays pending again, and what to remember of this look. */
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

/** Leaves the rows of a pass that stay pending and releases them until their next check, at once. */
export const postponeAll = async <V extends VerificationRecord>(
  ctx: WatcherContext,
  rules: VerdictRules<V>,
  waits: ReadonlyArray<{ v: V; outcome: Wait }>,
): Promise<void> => {
  await rescheduleChecks(
    ctx.db,
    rules.checks,
    waits.map(({ v, outcome }) => ({ id: rules.idOf(v), ...rescheduleOf(ctx, v, outcome) })),
  );
};
