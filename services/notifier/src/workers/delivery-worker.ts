import { errorText, type Worker } from '@stablepay/platform';
import { claimDueAttempts, releaseLeases, type ClaimedAttempt } from '../db/attempts-repo.js';
import type { NotifierContext } from '../domain/context.js';
import { sendAttempt, settleAttempt } from '../delivery/deliver.js';

export interface DeliveryWorkerOptions {
  concurrency: number;
  perEndpoint: number;
  leaseMs: number;
  pollMs: number;
}

/**
 * The delivery pool. A slot is an HTTP request in flight; it is free again as soon as the answer
 * is in, while the outcome is recorded (the attempt stays leased until then, so no one else takes
 * it). Attempts are claimed as slots free up, not in batches that wait for their slowest member,
 * so a receiver that hangs for the whole timeout holds one slot (at most `perEndpoint` of its own,
 * counting the ones claimed for it and not yet started) and every other endpoint keeps flowing.
 * Up to half a pool of claimed attempts waits ready, so a freed slot is refilled at once while the
 * next claim runs. One claim runs at a time; a finished request, a committed event or a due retry
 * asks for another.
 */
export class DeliveryWorker implements Worker {
  readonly name = 'webhook-delivery';
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly settling = new Set<Promise<void>>();
  /** Claimed, leased and waiting for a slot. */
  private readonly ready: ClaimedAttempt[] = [];
  /** Per endpoint: in flight plus ready. */
  private readonly perEndpoint = new Map<string, number>();
  private readonly prefetch: number;
  private stopped = true;
  private claiming?: Promise<void>;
  private claimAgain = false;
  private pollTimer?: NodeJS.Timeout;
  private readonly dueTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly ctx: NotifierContext,
    private readonly opts: DeliveryWorkerOptions,
  ) {
    this.prefetch = Math.ceil(opts.concurrency / 2);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  /** Look for due attempts now. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.fill()
      .catch((err: unknown) => {
        this.ctx.logger.warn('claiming webhook attempts failed', { err: errorText(err) });
      })
      .finally(() => {
        this.claiming = undefined;
        if (this.claimAgain) {
          this.claimAgain = false;
          this.wake();
        } else this.schedulePoll();
      });
  }

  /** Look again in `ms` (a retry falls due then); later than the poll interval, the poll finds it. */
  wakeIn(ms: number): void {
    if (this.stopped || ms >= this.opts.pollMs) return;
    const timer = setTimeout(() => {
      this.dueTimers.delete(timer);
      this.wake();
    }, ms + 5);
    this.dueTimers.add(timer);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    for (const t of this.dueTimers) clearTimeout(t);
    this.dueTimers.clear();
    await this.claiming;
    // What was claimed but not started goes back at once instead of waiting for its lease to end.
    const unstarted = this.ready.splice(0);
    await releaseLeases(this.ctx.db, unstarted).catch((err: unknown) =>
      this.ctx.logger.warn('could not release leases', { err: errorText(err) }),
    );
    // Attempts in flight finish (each bounded by the timeout) and record their outcome.
    await Promise.allSettled([...this.inFlight.values()]);
    await Promise.allSettled([...this.settling]);
  }

  private schedulePoll(): void {
    clearTimeout(this.pollTimer);
    if (this.stopped) return;
    this.pollTimer = setTimeout(() => this.wake(), this.opts.pollMs);
  }

  private startReady(): void {
    while (!this.stopped && this.inFlight.size < this.opts.concurrency && this.ready.length > 0) {
      this.launch(this.ready.shift()!);
    }
  }

  private async fill(): Promise<void> {
    while (!this.stopped) {
      this.startReady();
      const want = this.opts.concurrency + this.prefetch - this.inFlight.size - this.ready.length;
      if (want <= 0) return;
      const claimed = await claimDueAttempts(this.ctx.db, {
        limit: want,
        perEndpoint: this.opts.perEndpoint,
        inFlight: this.perEndpoint,
        leaseMs: this.opts.leaseMs,
      });
      for (const a of claimed) {
        this.perEndpoint.set(a.endpointId, (this.perEndpoint.get(a.endpointId) ?? 0) + 1);
        this.ready.push(a);
      }
      this.startReady();
      if (claimed.length < want) return;
    }
  }

  private launch(a: ClaimedAttempt): void {
    this.ctx.metrics.inFlight.inc();
    const release = () => {
      this.inFlight.delete(a.id);
      const left = (this.perEndpoint.get(a.endpointId) ?? 1) - 1;
      if (left > 0) this.perEndpoint.set(a.endpointId, left);
      else this.perEndpoint.delete(a.endpointId);
      this.ctx.metrics.inFlight.dec();
      this.startReady();
      this.wake();
    };
    const run = sendAttempt(this.ctx, a)
      .then((result) => {
        release();
        const settle = settleAttempt(this.ctx, a, result)
          .catch((err: unknown) => this.failed(a, err))
          .finally(() => this.settling.delete(settle));
        this.settling.add(settle);
      })
      .catch((err: unknown) => {
        release();
        this.failed(a, err);
      });
    this.inFlight.set(a.id, run);
  }

  /** The lease expires and the attempt is taken again: nothing is lost, it is only later. */
  private failed(a: ClaimedAttempt, err: unknown): void {
    this.ctx.logger.error('webhook attempt failed unexpectedly', { attemptId: a.id, err: errorText(err) });
  }
}
