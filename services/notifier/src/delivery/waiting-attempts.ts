import type { QueuedAttempt } from '../context.js';

/**
 * The unleased attempts this replica queued itself (committed, due), oldest first, to be claimed
 * by id as slots free up. Bounded: what does not fit is left to the full claim, which finds
 * everything due in the database anyway.
 */
export class WaitingAttempts {
  private items: QueuedAttempt[] = [];

  constructor(
    private readonly max = 50_000,
    /** Entries looked at per pick (those of endpoints at their limit are passed over). */
    private readonly scan = 5_000,
  ) {}

  get size(): number {
    return this.items.length;
  }

  /** false when they do not fit. */
  add(queued: QueuedAttempt[]): boolean {
    if (this.items.length + queued.length > this.max) return false;
    this.items.push(...queued);
    return true;
  }

  /** Takes up to `want`, oldest first, each endpoint within `limit` counting `used(endpoint)`. */
  pick(want: number, used: (endpointId: string) => number, limit: number): QueuedAttempt[] {
    const picked: QueuedAttempt[] = [];
    const kept: QueuedAttempt[] = [];
    const extra = new Map<string, number>();
    let i = 0;
    for (; i < this.items.length && picked.length < want && i < this.scan; i++) {
      const w = this.items[i]!;
      const more = extra.get(w.endpointId) ?? 0;
      if (used(w.endpointId) + more >= limit) kept.push(w);
      else {
        extra.set(w.endpointId, more + 1);
        picked.push(w);
      }
    }
    this.items = i === this.items.length ? kept : kept.concat(this.items.slice(i));
    return picked;
  }

  /** Forgets the oldest `n` (a full claim has taken whatever of them was still due). */
  dropOldest(n: number): void {
    this.items.splice(0, n);
  }
}
