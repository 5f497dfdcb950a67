import { EventTypes, type CctpFailureReason } from '@stablepay/contracts';
import { errorText } from '@stablepay/platform';
import { AttestationUnavailable } from '../../chain/attestation-api.js';
import { RpcUnavailableError } from '../../chain/rpc-errors.js';
import { advanceCctp, rescheduleCctp, type CctpPaymentRecord } from '../../db/cctp-repo.js';
import { writeEvent, type WatcherContext } from '../context.js';
import { BroadcastRejected } from '../transfers/attempts.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import { checkAttestation } from './relayer-attestation.js';
import { ClaimTaken, checkRelayedBurn } from './relayer-burn.js';
import { advanceRelayMint } from './relayer-mint.js';
import { relayRouteOf } from './relayer-route.js';
import { advanceRelayTransfer } from './relayer-transfer.js';

const recordFailure = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  reason: CctpFailureReason,
  detail: string,
) => {
  await ctx.db.transaction(async (trx) => {
    const moved = await advanceCctp(trx, p.paymentId, p.step, 'failed', {
      failureReason: reason,
      failureDetail: detail,
    });
    if (!moved) return;
    await writeEvent(trx, EventTypes.ChainCctpFailed, p.merchantId, {
      paymentId: p.paymentId,
      flow: 'relayer',
      reason,
      detail,
    });
  });
  ctx.eventsCommitted();
  ctx.logger.info('cross-chain payment failed', { paymentId: p.paymentId, flow: 'relayer', reason, detail });
};

const step = async (ctx: WatcherContext, p: CctpPaymentRecord): Promise<CctpOutcome | undefined> => {
  const route = await relayRouteOf(ctx, p);
  if (!('relay' in route)) return route;
  switch (p.step) {
    case 'burn':
      return checkRelayedBurn(ctx, p, route);
    case 'attestation':
      return checkAttestation(ctx, p, route);
    case 'mint':
      return advanceRelayMint(ctx, p, route);
    case 'transfer':
      return advanceRelayTransfer(ctx, p, route);
    default:
      return undefined;
  }
};

/**
 * One look at a relayer-flow payment (burn → attestation → mint → transfer): a step that holds moves
 * it on at once; one that waits (the API, confirmations, a pause, a transaction in flight) is looked
 * at again later, with growing back-off while something is missing or failing and never before a
 * rate limit says; one that is wrong fails the payment with its reason.
 */
export const advanceRelayerPayment = async (ctx: WatcherContext, p: CctpPaymentRecord): Promise<void> => {
  let outcome: CctpOutcome | undefined;
  try {
    outcome = await step(ctx, p);
  } catch (err) {
    if (err instanceof ClaimTaken)
      outcome = fail('already_claimed', 'transaction already paid another payment');
    else if (err instanceof RpcUnavailableError) outcome = waitFor(err.message);
    else if (err instanceof AttestationUnavailable)
      outcome = waitFor(err.message, { retryAfterMs: err.retryAfterMs });
    else {
      if (err instanceof BroadcastRejected)
        ctx.logger.warn('relay transaction refused', { err: err.message });
      else
        ctx.logger.error('cross-chain payment step failed', { paymentId: p.paymentId, err: errorText(err) });
      outcome = waitFor(errorText(err));
    }
  }
  if (!outcome) return;
  if (outcome.kind === 'fail') return recordFailure(ctx, p, outcome.reason, outcome.detail);
  const backoffStep = outcome.steady ? 0 : p.backoffStep + 1;
  const backoff = Math.min(ctx.cctp.maxBackoffMs, ctx.cctp.pollMs * 2 ** Math.min(backoffStep, 16));
  await rescheduleCctp(ctx.db, p.paymentId, {
    delayMs: Math.max(outcome.steady ? ctx.cctp.pollMs : backoff, outcome.retryAfterMs ?? 0),
    backoffStep,
  });
};
