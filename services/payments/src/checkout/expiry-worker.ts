import { loopWorker, type Logger, type Worker } from '@stablepay/platform';
import { expireDueSessions } from './session-expiry.js';
import type { PaymentsContext } from '../context.js';

const BATCH = 100;

/**
 * Expires checkout sessions whose time is up, whether or not anyone reads them. Every replica may
 * run one: the guarded UPDATE with SKIP LOCKED hands each session to exactly one of them. A full
 * batch means more may be due, so the next pass follows at once.
 */
export const checkoutExpiryWorker = (
  ctx: PaymentsContext,
  opts: { intervalMs: number; logger: Logger },
): Worker =>
  loopWorker({
    name: 'checkout-expiry',
    intervalMs: opts.intervalMs,
    logger: opts.logger,
    pass: async () => (await expireDueSessions(ctx, { limit: BATCH })) === BATCH,
  });
