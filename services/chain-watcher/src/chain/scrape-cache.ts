/**
 * A value read from a chain for /metrics, at most once per `ttlMs` however often Prometheus (or
 * several of them) scrapes. A scrape waits for a read at most `waitMs`, then answers with what it
 * has: a slow node never makes a scrape time out. A read that fails forgets the value, so the
 * series is absent rather than stale.
 */
export class ScrapeCache<T> {
  private value: T | undefined;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly opts: { ttlMs: number; waitMs: number },
  ) {}

  async get(): Promise<T | undefined> {
    if (!this.reading && Date.now() - this.readAt >= this.opts.ttlMs) {
      this.reading = this.read()
        .then(
          (v) => {
            this.value = v;
          },
          () => {
            this.value = undefined;
          },
        )
        .finally(() => {
          this.readAt = Date.now();
          this.reading = undefined;
        });
    }
    if (this.reading) await within(this.reading, this.opts.waitMs);
    return this.value;
  }
}

const within = async (p: Promise<void>, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
};
