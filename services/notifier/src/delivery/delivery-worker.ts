import { errorText, type Worker } from '@stablepay/platform';
import { claimAttemptsById, claimDueAttempts, releaseLeases, type ClaimedAttempt } from './attempts-repo.js';
import type { DirectDeliveries, NotifierContext, QueuedAttempt } from '../context.js';
import { sendAttempt, settleAttempt } from './deliver.js';
import { WaitingAttempts } from './waiting-attempts.js';

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
 * Up to a pool of claimed attempts waits ready, so a freed slot is refilled at once while the
 * next claim runs; a claim waits until half a pool is free (or nothing is ready), so that each
 * claim takes many attempts. One claim runs at a time.
 *
 * A new event's first attempts mostly skip the claim: the event handler reserves room here for
 * them, creates them already leased to this replica, and hands them over once its transaction has
 * committed (DirectDeliveries). What does not fit waits in the database, and while anything does,
 * new attempts queue behind it there instead of overtaking it. The ones this replica queued are
 * remembered (`waiting`, oldest first) and claimed by id; a full claim, which walks the queue
 * index, is needed only for work this replica does not know of: retries falling due, redeliveries,
 * replays, other replicas' leftovers. It runs on those wake-ups and at least every poll interval,
 * oldest first, so known work cannot starve it.
 */
export class DeliveryWorker implements Worker, DirectDeliveries {
  readonly name = 'webhook-delivery';
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly settling = new Set<Promise<void>>();
  /** Claimed (or handed over), leased and waiting for a slot. */
  private readonly ready: ClaimedAttempt[] = [];
  /** Per endpoint: in flight, ready, and reserved by event handlers. */
  private readonly perEndpoint = new Map<string, number>();
  /** Room promised to event handlers whose transactions have not ended yet. */
  private reserved = 0;
  private readonly waiting = new WaitingAttempts();
  /** The poll asked for a full claim. */
  private sweepDue = false;
  /**
   * In flight plus ready: a pool in flight and up to a pool waiting. An attempt waiting behind a
   * full pool starts within one answer window, so it is answered within two, inside its lease
   * (at least 2 × timeout + 1 s).
   */
  private readonly capacity: number;
  /** A claim runs once this many slots are free (or nothing is ready): half a pool. */
  private readonly minClaim: number;
  /**
   * The database may hold due attempts that nobody leased: set when attempts are queued without a
   * lease (or a claim came back full), cleared when a claim comes back short.
   */
  private backlog = true;
  private stopped = true;
  private claiming?: Promise<void>;
  private claimAgain = false;
  private pollTimer?: NodeJS.Timeout;
  private readonly dueTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly ctx: NotifierContext,
    private readonly opts: DeliveryWorkerOptions,
  ) {
    this.capacity = 2 * opts.concurrency;
    this.minClaim = Math.ceil(opts.concurrency / 2);
  }

  get leaseMs(): number {
    return this.opts.leaseMs;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  /** Attempts were queued without a lease: claim them. */
  wake(): void {
    this.backlog = true;
    this.claim();
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

  reserve(endpointIds: string[]): string[] {
    if (this.stopped || this.backlog || this.waiting.size > 0) return [];
    let room = this.capacity - this.inFlight.size - this.ready.length - this.reserved;
    const granted: string[] = [];
    for (const id of endpointIds) {
      if (room <= 0) break;
      const used = this.perEndpoint.get(id) ?? 0;
      if (used >= this.opts.perEndpoint) continue;
      this.perEndpoint.set(id, used + 1);
      granted.push(id);
      room--;
    }
    this.reserved += granted.length;
    return granted;
  }

  handOver(reserved: string[], attempts: ClaimedAttempt[], queued: QueuedAttempt[]): void {
    this.reserved -= reserved.length;
    const used = new Set(attempts.map((a) => a.endpointId));
    for (const id of reserved) if (!used.has(id)) this.unclaim(id);
    if (this.stopped) {
      // The queued ones wait in the database for whichever replica claims next.
      for (const a of attempts) this.unclaim(a.endpointId);
      if (attempts.length > 0) {
        releaseLeases(this.ctx.db, attempts).catch((err: unknown) =>
          this.ctx.logger.warn('could not release leases', { err: errorText(err) }),
        );
      }
      return;
    }
    this.ready.push(...attempts);
    this.startReady();
    if (queued.length === 0) return;
    if (this.waiting.add(queued)) this.claim();
    else this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
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

  /** Runs a claim now, or right after the one running. */
  private claim(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.fill()
      .catch((err: unknown) => {
        // What was being claimed by id is still in the database: the full claim finds it.
        this.backlog = true;
        this.ctx.logger.warn('claiming webhook attempts failed', { err: errorText(err) });
      })
      .finally(() => {
        this.claiming = undefined;
        if (this.claimAgain) {
          this.claimAgain = false;
          this.claim();
        } else this.schedulePoll();
      });
  }

  /**
   * Due retries are looked for at least this often, whatever else happens: the timer is not pushed
   * back by other claims, so a steady stream of claims by id cannot keep the full claim away.
   */
  private schedulePoll(): void {
    if (this.stopped || this.pollTimer) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      this.sweepDue = true;
      this.claim();
    }, this.opts.pollMs);
  }

  private startReady(): void {
    while (!this.stopped && this.inFlight.size < this.opts.concurrency && this.ready.length > 0) {
      this.launch(this.ready.shift()!);
    }
  }

  private async fill(): Promise<void> {
    while (!this.stopped) {
      this.startReady();
      const want = this.capacity - this.inFlight.size - this.ready.length - this.reserved;
      if (want <= 0 || (want < this.minClaim && this.ready.length > 0)) return;
      if (this.backlog || this.sweepDue || this.waiting.size === 0) {
        if (!(await this.claimDue(want))) return;
      } else {
        const used = (endpointId: string) => this.perEndpoint.get(endpointId) ?? 0;
        const picked = this.waiting.pick(want, used, this.opts.perEndpoint);
        const ids = picked.map((w) => w.id);
        const leased = await claimAttemptsById(this.ctx.db, ids, this.opts.leaseMs);
        const byId = new Map(picked.map((w) => [w.id, w]));
        this.take(leased.map((l) => ({ ...byId.get(l.id)!, ...l })));
        if (picked.length < want) return;
      }
    }
  }

  /** The full claim; true when it came back full (more may be due). */
  private async claimDue(want: number): Promise<boolean> {
    const sweep = this.sweepDue;
    this.sweepDue = false;
    const known = this.waiting.size;
    const claimed = await claimDueAttempts(this.ctx.db, {
      limit: want,
      perEndpoint: this.opts.perEndpoint,
      inFlight: this.perEndpoint,
      leaseMs: this.opts.leaseMs,
    });
    this.take(claimed);
    if (claimed.length === want) {
      // A poll that found what this replica already knows of is no sign of other work.
      if (!sweep || this.waiting.size === 0) this.backlog = true;
      return true;
    }
    if (this.anyEndpointFull()) {
      // An endpoint at its limit may have kept some back: claimed once one of its requests ends.
      this.backlog = true;
    } else {
      // Nothing due was left unleased when the claim ran: what was known then is taken too.
      this.waiting.dropOldest(known);
      if (!this.claimAgain) this.backlog = false;
    }
    return false;
  }

  private take(claimed: ClaimedAttempt[]): void {
    for (const a of claimed) {
      this.perEndpoint.set(a.endpointId, (this.perEndpoint.get(a.endpointId) ?? 0) + 1);
      this.ready.push(a);
    }
    this.startReady();
  }

  private anyEndpointFull(): boolean {
    for (const used of this.perEndpoint.values()) if (used >= this.opts.perEndpoint) return true;
    return false;
  }

  private unclaim(endpointId: string): void {
    const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
    if (left > 0) this.perEndpoint.set(endpointId, left);
    else this.perEndpoint.delete(endpointId);
  }

  private launch(a: ClaimedAttempt): void {
    this.ctx.metrics.inFlight.inc();
    const release = () => {
      this.inFlight.delete(a.id);
      this.unclaim(a.endpointId);
      this.ctx.metrics.inFlight.dec();
      this.startReady();
      if (this.backlog || this.waiting.size > 0) this.claim();
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
