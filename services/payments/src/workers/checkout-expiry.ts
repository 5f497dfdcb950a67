import { errorText, type Logger, type Worker } from '@stablepay/platform';
import { expireDueSessions } from '../domain/checkout.js';
import type { PaymentsContext } from '../domain/context.js';

const BATCH = 100;

/**
 * Expires checkout sessions whose time is up, whether or not anyone reads them. Every replica may
 * run one: the guarded UPDATE with SKIP LOCKED hands each session to exactly one of them.
 */
export const checkoutExpiryWorker = (
  ctx: PaymentsContext,
  opts: { intervalMs: number; logger: Logger },
): Worker => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  const pass = async (): Promise<void> => {
    while (!stopped && (await expireDueSessions(ctx, { limit: BATCH })) === BATCH) {
      // a full batch: more may be due
    }
  };

  const schedule = (ms: number): void => {
    timer = setTimeout(() => {
      running = pass()
        .catch((err: unknown) => {
          opts.logger.warn('checkout expiry pass failed', { err: errorText(err) });
        })
        .finally(() => {
          running = undefined;
          if (!stopped) schedule(opts.intervalMs);
        });
    }, ms);
  };

  return {
    name: 'checkout-expiry',
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};
