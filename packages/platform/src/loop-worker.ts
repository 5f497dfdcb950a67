import type { Logger } from './logger.js';
import { errorText } from './messaging/bus.js';
import type { Worker } from './service.js';

export interface LoopWorker extends Worker {
  /** Run a pass now instead of at the next interval (after new work was committed). */
  wake(): void;
}

/**
 * A background loop: one pass at a time, the next one `intervalMs` after the last, or at once when
 * the pass reports more work (a full batch) or someone woke it. A failed pass is logged and the loop
 * goes on; stop waits for the pass in flight.
 */
export const loopWorker = (opts: {
  name: string;
  intervalMs: number;
  logger: Logger;
  /** Returns true when there is more to do right away; `stopping()` turns true once stop was called. */
  pass: (stopping: () => boolean) => Promise<boolean>;
}): LoopWorker => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let wakeRequested = false;

  const schedule = (ms: number): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      let more = false;
      running = opts
        .pass(() => stopped)
        .then((m) => {
          more = m;
        })
        .catch((err: unknown) => {
          opts.logger.warn(`${opts.name} pass failed`, { err: errorText(err) });
        })
        .finally(() => {
          running = undefined;
          if (stopped) return;
          const now = more || wakeRequested;
          wakeRequested = false;
          schedule(now ? 0 : opts.intervalMs);
        });
    }, ms);
  };

  return {
    name: opts.name,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    wake() {
      if (stopped) return;
      if (running) wakeRequested = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};

/** Runs `fn` over the items with at most `limit` in flight. */
export const forEachConcurrent = async <T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> => {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
};
