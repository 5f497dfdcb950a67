import type { Knex } from 'knex';
import type { ServiceName } from '@stablepay/contracts';
import { buildEvent, writeEventBatched, type EventWriter } from '../messaging/outbox.js';

/** The knex transaction fields this module relies on; `parentTransaction` is set on nested ones. */
interface TransactionLike {
  isTransaction?: boolean;
  executionPromise?: Promise<unknown>;
  parentTransaction?: TransactionLike;
}

const scheduled = new WeakMap<object, Set<() => void>>();

/**
 * Runs `callback` once the outermost transaction of `db` has ended (a savepoint's release is not
 * yet an end), and at once when `db` is not a transaction (each statement commits by itself). A
 * callback given several times for one transaction runs once. Knex resolves a transaction's
 * execution promise on a commit and also on a rollback that carries no error, and a rolled-back
 * savepoint inside a committed transaction ends with it, so the callback may run for work that was
 * undone: give it only what is harmless to run then, such as waking a worker that finds nothing.
 */
export const afterCommit = (db: Knex | Knex.Transaction, callback: () => void): void => {
  let trx = db as unknown as TransactionLike;
  if (!trx.isTransaction || !trx.executionPromise) {
    callback();
    return;
  }
  while (trx.parentTransaction?.executionPromise) trx = trx.parentTransaction;
  let callbacks = scheduled.get(trx);
  if (!callbacks) {
    const pending = new Set<() => void>();
    callbacks = pending;
    scheduled.set(trx, pending);
    trx.executionPromise!.then(
      () => {
        for (const run of pending) run();
      },
      () => undefined,
    );
  }
  callbacks.add(callback);
};

/**
 * The service's event writer that also wakes its workers: each event is written to the outbox in
 * the caller's transaction (validated against the contracts' catalogue), and `wake` (the outbox
 * relay's, `ServiceKit.eventsCommitted`) runs once that transaction commits. Code that writes
 * events through it never calls `eventsCommitted()` by hand.
 */
export const wakingEventWriter =
  (producer: ServiceName, wake: () => void): EventWriter =>
  async (trx, type, merchantId, data) => {
    await writeEventBatched(trx, buildEvent({ type, producer, merchantId, data }));
    afterCommit(trx, wake);
  };
