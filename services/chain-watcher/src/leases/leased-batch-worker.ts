import {
  forEachConcurrent,
  loopWorker,
  runWithContext,
  type LoopWorker,
  type Logger,
} from '@stablepay/platform';

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
  handlerFor: (rows: readonly R[]) => (row: R) => Promise<void>;
  /** The correlation id a row's work runs under (its events and log lines carry it). */
  correlationOf: (row: R) => string | null;
}): LoopWorker =>
  loopWorker({
    name: opts.name,
    intervalMs: opts.intervalMs,
    logger: opts.logger,
    pass: async (stopping) => {
      const due = await opts.lease(opts.batchSize);
      if (due.length === 0) return false;
      const handle = opts.handlerFor(due);
      const untouched: R[] = [];
      await forEachConcurrent(due, opts.concurrency, async (row) => {
        if (stopping()) untouched.push(row);
        else {
          const correlationId = opts.correlationOf(row) ?? undefined;
          await runWithContext({ correlationId }, () => handle(row));
        }
      });
      if (untouched.length > 0) await opts.release(untouched);
      return due.length === opts.batchSize;
    },
  });
