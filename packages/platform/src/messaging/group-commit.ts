import type { Knex } from 'knex';
import { collectingBatchedWrites } from './batched-writes.js';
import { claimInbox, claimInboxes, type InboxClaim } from './inbox.js';

type Job = {
  work: (trx: Knex.Transaction) => Promise<void>;
  /** the inbox row that makes the work happen once; the work runs only when it is new */
  claim?: InboxClaim;
  resolve: (ran: boolean) => void;
  reject: (err: unknown) => void;
};

/**
 * Runs units of work that arrive together in one transaction, one commit for the lot, instead of a
 * transaction each: under load a consumer's deliveries share their BEGIN, COMMIT and the commit's
 * flush to disk, and their inbox rows go in in one statement; alone, a unit runs at once in a
 * transaction of its own, as before.
 *
 * Each unit still succeeds or fails on its own. When one throws, the shared transaction is rolled
 * back (nothing of any unit stays, inbox rows included) and every unit of the batch runs again in a
 * transaction of its own, so the failing one fails alone and the others commit. Units must
 * therefore be safe to run twice after a rollback (database work only; the inbox makes a
 * redelivered message a no-op). Rows the units hand to `writeBatched` go in together, one statement
 * for the batch, before it commits.
 */
export class GroupCommit {
  private readonly queue: Job[] = [];
  private running = false;

  constructor(
    private readonly db: Knex,
    private readonly maxBatch = 32,
  ) {}

  /**
   * Resolves once the work has committed; rejects with its own error when it failed. With a claim,
   * the work runs in the transaction that records it in the inbox, and only if it was not recorded
   * before: resolves to false for a message already handled.
   */
  run(work: (trx: Knex.Transaction) => Promise<void>, claim?: InboxClaim): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ work, claim, resolve, reject });
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
      const ran = await this.db.transaction(async (trx) => {
        const { claim } = job;
        if (claim && !(await claimInbox(trx, claim.consumer, claim.messageId, claim.type))) return false;
        await job.work(trx);
        return true;
      });
      job.resolve(ran);
    } catch (err) {
      job.reject(err);
    }
  }

  private async together(batch: Job[]): Promise<void> {
    let ran: boolean[];
    try {
      ran = await this.db.transaction((trx) =>
        collectingBatchedWrites(trx, async () => {
          const claimed = batch.filter((job) => job.claim);
          const fresh = await claimInboxes(
            trx,
            claimed.map((job) => job.claim!),
          );
          const isNew = new Map(claimed.map((job, i) => [job, fresh[i]!]));
          const out: boolean[] = [];
          for (const job of batch) {
            const runs = isNew.get(job) ?? true;
            if (runs) await job.work(trx);
            out.push(runs);
          }
          return out;
        }),
      );
    } catch {
      for (const job of batch) await this.alone(job);
      return;
    }
    batch.forEach((job, i) => job.resolve(ran[i]!));
  }
}
