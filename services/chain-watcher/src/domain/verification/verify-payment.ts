import { errorText } from '@stablepay/platform';
import { RpcUnavailableError } from '../../chain/rpc-errors.js';
import type { VerificationRecord } from '../../db/verifications-repo.js';
import type { WatcherContext } from '../context.js';
import { checkPayment, type PassCache } from './check-payment.js';
import { postpone, recordVerdict } from './verdicts.js';

/**
 * Checks one leased payment and either commits its verdict or puts it back with a next check time.
 * A failure, of the RPC or anything else, is never a verdict: the payment stays pending and comes
 * back with backoff. Should even that write fail, the lease runs out and another pass takes the row.
 */
export const verifyPayment = async (
  ctx: WatcherContext,
  v: VerificationRecord,
  cache: PassCache,
): Promise<void> => {
  try {
    const outcome = await checkPayment(ctx, v, cache);
    if (outcome.kind === 'wait') await postpone(ctx, v, outcome);
    else await recordVerdict(ctx, v, outcome);
  } catch (err) {
    if (!(err instanceof RpcUnavailableError)) {
      ctx.logger.error('verification failed', { paymentId: v.paymentId, err: errorText(err) });
    }
    await postpone(ctx, v, {
      kind: 'wait',
      why: 'rpc',
      detail: errorText(err),
      blockNumber: null,
      blockHash: null,
    }).catch((e: unknown) =>
      ctx.logger.warn('could not reschedule verification', { paymentId: v.paymentId, err: errorText(e) }),
    );
  }
};
