import { EventTypes, baseUnitsToDecimal, chainById } from '@stablepay/contracts';
import type { WatcherContext } from '../context/watcher-context.js';
import { TOP_UP_CHECKS } from './checks-repo.js';
import type { TopUpVerificationRecord } from './top-ups-repo.js';
import type { Final } from './rules.js';
import { commitVerdict, verdictEventOf, type VerdictRules } from './verdict-commit.js';

const topUpEvent = (v: TopUpVerificationRecord, final: Final) =>
  final.kind === 'verified'
    ? verdictEventOf(v, EventTypes.ChainTopUpVerified, {
        topUpId: v.topUpId,
        paymentId: v.paymentId,
        txHash: v.txHash,
        chainId: v.chainId,
        receivedAmount: baseUnitsToDecimal(final.receivedUnits),
        blockNumber: final.blockNumber,
        blockTimestamp: final.blockTimestamp.toISOString(),
      })
    : verdictEventOf(v, EventTypes.ChainTopUpRejected, {
        topUpId: v.topUpId,
        paymentId: v.paymentId,
        txHash: v.txHash,
        reason: final.reason,
        detail: final.detail,
      });

/**
 * A top-up's verdict, committed as a payment's is (see commitVerdict): a verified top-up first
 * claims its transaction for the payment, and one another payment holds becomes `already_claimed`.
 * Every Transfer log of the payer into the merchant wallet is a `payment` journal of the payment
 * (transfer-in:<chain>:<tx>:<log>), like its first transfer's.
 */
export const TOP_UP_VERDICTS: VerdictRules<TopUpVerificationRecord> = {
  checks: TOP_UP_CHECKS,
  idOf: (v) => v.topUpId,
  claims: (final) => final.kind === 'verified',
  event: topUpEvent,
  after: (ctx: WatcherContext, v, final) => {
    const chain = chainById(ctx.registry, v.chainId)?.name ?? String(v.chainId);
    ctx.logger.info('top-up verdict', {
      paymentId: v.paymentId,
      topUpId: v.topUpId,
      chain,
      verdict: final.kind,
      ...(final.kind === 'rejected' ? { reason: final.reason } : {}),
    });
  },
};

export const recordTopUpVerdict = (
  ctx: WatcherContext,
  v: TopUpVerificationRecord,
  outcome: Final,
): Promise<boolean> => commitVerdict(ctx, TOP_UP_VERDICTS, v, outcome);
