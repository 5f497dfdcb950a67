import type { Logger } from '@stablepay/platform';
import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import { Redis } from 'ioredis';
import type { Counter } from 'prom-client';
import { RedisStore } from 'rate-limit-redis';

/** How long a Redis command may take before the request is counted in memory instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * express-rate-limit's MemoryStore, answering each increment with the count that increment made.
 * Its own answer is its live record, which later increments change before the caller reads it:
 * of ten attempts at once, every one would read ten. Increments are chained so that each is read
 * before the next is made.
 */
class MemoryCounts extends MemoryStore {
  private last: Promise<unknown> = Promise.resolve();

  override increment(key: string): Promise<ClientRateLimitInfo> {
    const counted = this.last.then(async () => {
      const { totalHits, resetTime } = await super.increment(key);
      return { totalHits, resetTime };
    });
    this.last = counted.catch(() => undefined);
    return counted;
  }
}

/**
 * Counts in Redis, shared by every gateway replica, and falls back to this replica's memory for
 * any call Redis does not answer: an outage of Redis leaves the limits per replica (as without
 * REDIS_URL), never gone and never refusing everyone. Each fallback is counted in
 * `rate_limit_store_errors_total` and logged (once per outage), so an operator sees it.
 */
class SharedStore implements Store {
  private readonly fallback = new MemoryCounts();
  private options?: Options;
  /** Set when a call failed: the next one loads the Lua scripts again (they may be gone or never loaded). */
  private stale = false;

  constructor(
    private readonly redis: RedisStore,
    private readonly onError: (err: unknown) => void,
  ) {}

  init(options: Options): void {
    this.options = options;
    this.fallback.init(options);
    this.redis.init(options).catch((err: unknown) => this.failed(err));
  }

  private failed(err: unknown): void {
    this.stale = true;
    this.onError(err);
  }

  private async shared<T>(call: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    try {
      if (this.stale && this.options) {
        this.stale = false;
        await this.redis.init(this.options);
      }
      return await call();
    } catch (err) {
      this.failed(err);
      return local();
    }
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.shared(
      async () => {
        // A key Redis does not hold comes back as NaN hits (the script's nil), which means none.
        const info = await this.redis.get(key);
        return info && info.totalHits > 0 ? info : undefined;
      },
      () => this.fallback.get(key),
    );
  }

  increment(key: string): Promise<ClientRateLimitInfo> {
    return this.shared(
      () => this.redis.increment(key),
      () => this.fallback.increment(key),
    );
  }

  decrement(key: string): Promise<void> {
    return this.shared(
      () => this.redis.decrement(key),
      () => this.fallback.decrement(key),
    );
  }

  resetKey(key: string): Promise<void> {
    return this.shared(
      () => this.redis.resetKey(key),
      () => this.fallback.resetKey(key),
    );
  }
}

export interface RateLimitStores {
  /** Where the counts live: `redis` with REDIS_URL, else `memory`. */
  kind: 'redis' | 'memory';
  /** A fresh store for one limiter or counter (express-rate-limit wants one per limiter). */
  create(name: string): Store;
  close(): Promise<void>;
}

export interface RateLimitStoreOptions {
  redisUrl?: string;
  /** Prefix of every key in Redis, so deployments (or test runs) sharing a Redis never share counts. */
  prefix: string;
  logger: Logger;
  /** Counts each call Redis did not answer, by limiter. */
  errors: Counter<'limiter'>;
}

/**
 * The counters behind every rate limit, lock-out and failure throttle of the gateway: in Redis when
 * REDIS_URL is set, so a limit holds across replicas; in this process's memory otherwise.
 */
export const createRateLimitStores = (opts: RateLimitStoreOptions): RateLimitStores => {
  if (!opts.redisUrl)
    return { kind: 'memory', create: () => new MemoryCounts(), close: () => Promise.resolve() };

  // No offline queue: while Redis is away a command fails at once and the request is counted in
  // memory, instead of waiting for a reconnection that may never come.
  const client = new Redis(opts.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
  });
  let healthy = true;
  const unreachable = (err: unknown) => {
    if (!healthy) return;
    healthy = false;
    opts.logger.warn('rate limits are counted per replica: Redis is not answering', {
      err: err instanceof Error ? err.message : String(err),
    });
  };
  client.on('error', unreachable);
  client.on('ready', () => {
    if (healthy) return;
    healthy = true;
    opts.logger.info('rate limits are counted in Redis again');
  });
  const sendCommand = (command: string, ...args: string[]) =>
    client.call(command, ...args) as Promise<boolean | number | string | (boolean | number | string)[]>;

  return {
    kind: 'redis',
    create: (name) =>
      new SharedStore(new RedisStore({ prefix: `${opts.prefix}${name}:`, sendCommand }), (err) => {
        opts.errors.inc({ limiter: name });
        unreachable(err);
      }),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
};
