import { errorText } from '@stablepay/platform';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import type { VerificationRecord } from './verifications-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { checkPayment, type PassCache } from './check-payment.js';
import type { Outcome } from './rules.js';

/**
 * One look at a leased payment. A failure, of the RPC or anything else, is never a verdict: it
 * comes back as a wait, so the payment stays pending and is looked at again with backoff.
 */
export const lookAt = async (
  ctx: WatcherContext,
  v: VerificationRecord,
  cache: PassCache,
): Promise<Outcome> => {
  try {
    return await checkPayment(ctx, v, cache);
  } catch (err) {
    if (!(err instanceof RpcUnavailableError)) {
      ctx.logger.error('verification failed', { paymentId: v.paymentId, err: errorText(err) });
    }
    return { kind: 'wait', why: 'rpc', detail: errorText(err), blockNumber: null, blockHash: null };
  }
};
