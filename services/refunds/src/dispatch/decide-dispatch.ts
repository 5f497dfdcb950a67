import { decimalToBaseUnits } from '@stablepay/contracts';
import {
  committedOutflow,
  lockMerchantToken,
  lockPendingRefund,
  markWaitingForFunds,
  type DueRefund,
} from './dispatch-repo.js';
import type { RefundsContext } from '../context.js';
import { startProcessingIn } from '../refunds/refund-state.js';

/** Does the wallet's balance of the token cover this refund on top of what it already owes? */
export const fundsCover = (balance: string, alreadyCommitted: string, amount: string): boolean =>
  decimalToBaseUnits(balance) >= decimalToBaseUnits(alreadyCommitted) + decimalToBaseUnits(amount);

export type DispatchDecision = 'dispatched' | 'waiting' | 'gone';

/**
 * Decides one due refund against the balance the wallet holds of its token, read before this
 * transaction began (no transaction waits on the chain-watcher). Decisions for one merchant and
 * token are serialised across replicas, and the balance must cover this refund on top of every
 * refund of that token already processing, so two refunds are never both paid from the same funds.
 * A refund that fits moves to processing with its transfer command; one that does not is flagged
 * `waiting_for_funds` and stays pending (still cancellable) until a later pass finds the funds.
 */
export const decideDispatch = async (
  ctx: RefundsContext,
  refund: DueRefund,
  balance: string,
  opts: { recheckMs: number },
): Promise<DispatchDecision> => {
  let firstShortfall = false;
  const decision = await ctx.db.transaction(async (trx): Promise<DispatchDecision> => {
    await lockMerchantToken(trx, refund.merchantId, refund.currency);
    const pending = await lockPendingRefund(trx, refund.id);
    if (!pending) return 'gone';
    const committed = await committedOutflow(trx, refund.merchantId, refund.currency, refund.claimedAt);
    if (fundsCover(balance, committed, refund.amount)) {
      return (await startProcessingIn(ctx, trx, refund.id)) ? 'dispatched' : 'gone';
    }
    firstShortfall = !pending.waitingForFunds;
    await markWaitingForFunds(trx, refund.id, opts.recheckMs);
    return 'waiting';
  });
  if (decision === 'dispatched') {
    ctx.logger.info('refund dispatched', {
      refundId: refund.id,
      amount: refund.amount,
      token: refund.currency,
    });
  } else if (decision === 'waiting' && firstShortfall) {
    ctx.logger.info('refund waits for funds in the merchant wallet', {
      refundId: refund.id,
      merchantId: refund.merchantId,
      amount: refund.amount,
      token: refund.currency,
      balance,
    });
  }
  return decision;
};
