import {
  forEachConcurrent,
  loopWorker,
  runWithContext,
  type LoopWorker,
  type Logger,
} from '@stablepay/platform';

/** One batch's work: each row, then whatever the batch commits together. */
export interface BatchHandler<R> {
  handle: (row: R) => Promise<void>;
  /** after every row not handed back was handled (verdicts committed in one transaction, say) */
  finish?: () => Promise<void>;
}

/**
 * A worker over leased rows: leases a batch of due ones, handles them with bounded concurrency,
 * repeats while batches come back full. Replicas run side by side; the lease keeps each row with one
 * of them at a time. On shutdown, rows leased but not started are handed back, so another replica
 * need not wait for their lease to run out.
 */
export const leasedBatchWorker = <R>(opts: {
  name: string;
  intervalMs: number;
  logger: Logger;
  batchSize: number;
  concurrency: number;
  lease: (limit: number) => Promise<R[]>;
  release: (rows: R[]) => Promise<void>;
  /** The handler of one batch (it may share reads between the rows of a batch). */
  handlerFor: (rows: readonly R[]) => ((row: R) => Promise<void>) | BatchHandler<R>;
  /** The correlation id a row's work runs under (its events and log lines carry it). */
  correlationOf: (row: R) => string | null;
  /**
   * Renews the leases of the rows still in hand every `everyMs` while the batch runs, so that the
   * lease itself can be short: a replica that dies is replaced within a lease, not a worst-case step.
   */
  heartbeat?: { everyMs: number; renew: (rows: R[]) => Promise<void> };
}): LoopWorker =>
  loopWorker({
    name: opts.name,
    intervalMs: opts.intervalMs,
    logger: opts.logger,
    pass: async (stopping) => {
      const due = await opts.lease(opts.batchSize);
      if (due.length === 0) return false;
      const handler = opts.handlerFor(due);
      const { handle, finish } =
        typeof handler === 'function' ? { handle: handler, finish: undefined } : handler;
      const untouched: R[] = [];
      const inHand = new Set(due);
      const beat = opts.heartbeat && renewing(opts.heartbeat, inHand, opts.logger, opts.name);
      try {
        await forEachConcurrent(due, opts.concurrency, async (row) => {
          if (stopping()) {
            untouched.push(row);
            inHand.delete(row);
            return;
          }
          const correlationId = opts.correlationOf(row) ?? undefined;
          await runWithContext({ correlationId }, () => handle(row));
          // With a finish, a handled row's outcome is only committed there: it stays in hand till then.
          if (!finish) inHand.delete(row);
        });
        if (finish) await finish();
      } finally {
        beat?.stop();
      }
      if (untouched.length > 0) await opts.release(untouched);
      return due.length === opts.batchSize;
    },
  });

/** A third of the lease: two renewals may be late or fail before it runs out. */
export const heartbeatEvery = (leaseMs: number): number => Math.max(100, Math.floor(leaseMs / 3));

/** Renews the leases of the rows in `inHand` every `everyMs` until stopped; a failed renewal is logged. */
const renewing = <R>(
  heartbeat: { everyMs: number; renew: (rows: R[]) => Promise<void> },
  inHand: Set<R>,
  logger: Logger,
  name: string,
): { stop: () => void } => {
  const timer = setInterval(() => {
    if (inHand.size === 0) return;
    heartbeat
      .renew([...inHand])
      .catch((err: unknown) =>
        logger.warn('lease renewal failed', { worker: name, err: (err as Error).message }),
      );
  }, heartbeat.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};
