import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';

export interface FailureCounter {
  /** Seconds until `key` may try again, when it has reached the limit; undefined while it may. */
  lockedFor(key: string): Promise<number | undefined>;
  recordFailure(key: string): Promise<void>;
  /**
   * Counts an attempt before its outcome is known, in one atomic step: seconds until `key` may try
   * again when this attempt is past the limit, undefined when it may go on. Attempts sent at once
   * cannot all slip past a check made before any of them was counted.
   */
  attempt(key: string): Promise<number | undefined>;
  /** Forgets `key`'s count (a success ends a run of mistakes). */
  clear(key: string): Promise<void>;
}

/**
 * Failures (or attempts) per key in a fixed window, kept in a rate-limit store (Redis when
 * configured, so every replica sees them). `lockedFor` only reads, and `recordFailure` counts after
 * the fact, so a busy client that keeps succeeding is never slowed by its own traffic in flight;
 * `attempt` counts first, where a burst of guesses must not outrun the count.
 */
export const failureCounter = (store: Store, limit: number, windowMs: number): FailureCounter => {
  void store.init?.({ windowMs } as Options);
  const secondsLeft = (info: ClientRateLimitInfo): number => {
    const ms = (info.resetTime?.getTime() ?? Date.now() + windowMs) - Date.now();
    return Math.max(1, Math.ceil(ms / 1000));
  };
  return {
    lockedFor: async (key) => {
      const info = await store.get?.(key);
      return info && info.totalHits >= limit ? secondsLeft(info) : undefined;
    },
    recordFailure: async (key) => {
      await store.increment(key);
    },
    attempt: async (key) => {
      const info = await store.increment(key);
      return info.totalHits > limit ? secondsLeft(info) : undefined;
    },
    clear: async (key) => {
      await store.resetKey(key);
    },
  };
};
