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
      await forEachConcurrent(due, opts.concurrency, async (row) => {
        if (stopping()) untouched.push(row);
        else {
          const correlationId = opts.correlationOf(row) ?? undefined;
          await runWithContext({ correlationId }, () => handle(row));
        }
      });
      if (finish) await finish();
      if (untouched.length > 0) await opts.release(untouched);
      return due.length === opts.batchSize;
    },
  });
