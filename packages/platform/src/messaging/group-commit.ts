import type { Knex } from 'knex';

type Job = {
  work: (trx: Knex.Transaction) => Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
};

/**
 * Runs units of work that arrive together in one transaction, one commit for the lot, instead of a
 * transaction each: under load a consumer's deliveries share their BEGIN, COMMIT and the commit's
 * flush to disk; alone, a unit runs at once in a transaction of its own, as before.
 *
 * Each unit still succeeds or fails on its own. When one throws, the shared transaction is rolled
 * back (nothing of any unit stays) and every unit of the batch runs again in a transaction of its
 * own, so the failing one fails alone and the others commit. Units must therefore be safe to run
 * twice after a rollback (database work only; the inbox makes a redelivered message a no-op).
 */
export class GroupCommit {
  private readonly queue: Job[] = [];
  private running = false;

  constructor(
    private readonly db: Knex,
    private readonly maxBatch = 32,
  ) {}

  /** Resolves once the work has committed; rejects with its own error when it failed. */
  run(work: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        if (batch.length === 1) await this.alone(batch[0]!);
        else await this.together(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async alone(job: Job): Promise<void> {
    try {
      await this.db.transaction((trx) => job.work(trx));
      job.resolve();
    } catch (err) {
      job.reject(err);
    }
  }

  private async together(batch: Job[]): Promise<void> {
    try {
      await this.db.transaction(async (trx) => {
        for (const job of batch) await job.work(trx);
      });
    } catch {
      for (const job of batch) await this.alone(job);
      return;
    }
    for (const job of batch) job.resolve();
  }
}
