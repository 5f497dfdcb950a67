import type { Options, Store } from 'express-rate-limit';

export interface FailureCounter {
  /** Seconds until `key` may try again, when it has reached the limit; undefined while it may. */
  lockedFor(key: string): Promise<number | undefined>;
  recordFailure(key: string): Promise<void>;
  /** Forgets `key`'s failures (a success ends a run of mistakes). */
  clear(key: string): Promise<void>;
}

/**
 * Failures per key in a fixed window, kept in a rate-limit store (Redis when configured, so every
 * replica sees them). Only failures are counted, after the fact, and the check before an attempt
 * only reads: a busy client that keeps succeeding is never slowed by its own traffic in flight.
 */
export const failureCounter = (store: Store, limit: number, windowMs: number): FailureCounter => {
  void store.init?.({ windowMs } as Options);
  return {
    lockedFor: async (key) => {
      const info = await store.get?.(key);
      if (!info || !(info.totalHits >= limit)) return undefined;
      const ms = (info.resetTime?.getTime() ?? Date.now() + windowMs) - Date.now();
      return Math.max(1, Math.ceil(ms / 1000));
    },
    recordFailure: async (key) => {
      await store.increment(key);
    },
    clear: async (key) => {
      await store.resetKey(key);
    },
  };
};
