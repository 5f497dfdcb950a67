import type { Knex } from 'knex';
import type { EventDataInput, EventType } from '@stablepay/contracts';
import { buildEvent, enqueueEvent } from '@stablepay/platform';

export const PRODUCER = 'chain-watcher';

/**
 * Writes an integration event to the outbox in the caller's transaction. buildEvent checks the data
 * against the contracts' catalogue, so no consumer ever receives a payload it would reject.
 */
export const writeEvent = async <T extends EventType>(
  trx: Knex.Transaction,
  type: T,
  merchantId: string,
  data: EventDataInput<T>,
): Promise<void> => {
  await enqueueEvent(trx, buildEvent<T>({ type, producer: PRODUCER, merchantId, data }));
};
