import type { Knex } from 'knex';

/** A write that takes the rows of many units at once (one multi-row INSERT instead of one each). */
export type BatchedWrite<T> = (trx: Knex.Transaction, items: T[]) => Promise<void>;

const collecting = new WeakMap<Knex.Transaction, Map<BatchedWrite<never>, unknown[]>>();

/**
 * Hands `item` to `write` in the caller's transaction. Inside a consumer's shared transaction
 * (group-commit.ts) the items of every unit are collected and written by one call before it
 * commits; anywhere else they are written at once. Only for writes nothing later in the same
 * transaction reads: a unit does not see its own item until the batch is written.
 */
export const writeBatched = async <T>(
  trx: Knex.Transaction,
  write: BatchedWrite<T>,
  item: T,
): Promise<void> => {
  const pending = collecting.get(trx);
  if (!pending) return write(trx, [item]);
  const items = pending.get(write as BatchedWrite<never>);
  if (items) items.push(item);
  else pending.set(write as BatchedWrite<never>, [item]);
};

/**
 * Runs `work` collecting the batched writes made in `trx`, then writes them, still inside the
 * transaction: a failing write fails the work, and nothing of it commits.
 */
export const collectingBatchedWrites = async <R>(
  trx: Knex.Transaction,
  work: () => Promise<R>,
): Promise<R> => {
  const pending = new Map<BatchedWrite<never>, unknown[]>();
  collecting.set(trx, pending);
  try {
    const result = await work();
    for (const [write, items] of pending) await write(trx, items as never[]);
    return result;
  } finally {
    collecting.delete(trx);
  }
};
