import { EventTypes, baseUnitsToDecimal, chainById } from '@stablepay/contracts';
import { buildEvent, enqueueEvent } from '@stablepay/platform';
import { claimTransaction } from './claims-repo.js';
import { decideTopUp, type TopUpVerificationRecord } from './top-ups-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { reject, type Outcome } from './rules.js';
import { journalVerdict } from './verdict-journals.js';

type Final = Extract<Outcome, { kind: 'verified' | 'rejected' }>;

/**
 * Commits a top-up's verdict, its ledger journals and its event in one transaction, as a payment's
 * verdict is committed (verification/verdicts.ts): a verified top-up first claims its transaction
 * for the payment, and one another payment holds becomes `already_claimed`; the guarded UPDATE
 * makes the verdict happen once. Every Transfer log of the payer into the merchant wallet is a
 * `payment` journal of the payment (transfer-in:<chain>:<tx>:<log>), like its first transfer's.
 */
export const recordTopUpVerdict = async (
  ctx: WatcherContext,
  v: TopUpVerificationRecord,
  outcome: Final,
): Promise<boolean> => {
  let final: Final = outcome;
  const won = await ctx.db.transaction(async (trx) => {
    if (final.kind === 'verified' && !(await claimTransaction(trx, v.chainId, v.txHash, v.paymentId))) {
      final = {
        ...reject('already_claimed', `transaction ${v.txHash} already paid another payment`),
        blockNumber: final.blockNumber,
        blockHash: final.blockHash,
      };
    }
    const decided = await decideTopUp(trx, v.topUpId, {
      status: final.kind,
      reason: final.kind === 'rejected' ? final.reason : null,
      receivedUnits: final.receivedUnits,
      detail: final.kind === 'rejected' ? final.detail : null,
      blockNumber: final.blockNumber ?? null,
      blockHash: final.blockHash ?? null,
    });
    if (!decided) return false;
    await journalVerdict(trx, v, final);
    await enqueueEvent(trx, topUpEvent(v, final));
    return true;
  });
  if (!won) return false;
  ctx.eventsCommitted();
  const chain = chainById(ctx.registry, v.chainId)?.name ?? String(v.chainId);
  ctx.logger.info('top-up verdict', {
    paymentId: v.paymentId,
    topUpId: v.topUpId,
    chain,
    verdict: final.kind,
    ...(final.kind === 'rejected' ? { reason: final.reason } : {}),
  });
  return true;
};

const topUpEvent = (v: TopUpVerificationRecord, final: Final) =>
  final.kind === 'verified'
    ? buildEvent({
        type: EventTypes.ChainTopUpVerified,
        producer: 'chain-watcher',
        merchantId: v.merchantId,
        correlationId: v.correlationId ?? undefined,
        data: {
          topUpId: v.topUpId,
          paymentId: v.paymentId,
          txHash: v.txHash,
          chainId: v.chainId,
          receivedAmount: baseUnitsToDecimal(final.receivedUnits),
          blockNumber: final.blockNumber,
          blockTimestamp: final.blockTimestamp.toISOString(),
        },
      })
    : buildEvent({
        type: EventTypes.ChainTopUpRejected,
        producer: 'chain-watcher',
        merchantId: v.merchantId,
        correlationId: v.correlationId ?? undefined,
        data: {
          topUpId: v.topUpId,
          paymentId: v.paymentId,
          txHash: v.txHash,
          reason: final.reason,
          detail: final.detail,
        },
      });
