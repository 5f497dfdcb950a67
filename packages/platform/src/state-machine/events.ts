import type { Knex } from 'knex';
import type { EventDataInput, EventType } from '@stablepay/contracts';
import type { EventWriter } from '../messaging/outbox.js';

/** An integration event a transition records, written with it in one transaction. */
export type PlannedEvent = {
  [T in EventType]: { type: T; merchantId: string; data: EventDataInput<T> };
}[EventType];

/** What a transition announces about the record it moved: nothing, one event or several. */
export type EventPlan<R> = (record: R) => PlannedEvent | readonly PlannedEvent[] | undefined;

/** Writes the planned events of `record` through `writer`, in order, in the caller's transaction. */
export const writePlannedEvents = async <R>(
  trx: Knex.Transaction,
  writer: EventWriter | undefined,
  plan: EventPlan<R> | undefined,
  record: R,
): Promise<void> => {
  const planned = plan?.(record);
  if (planned === undefined) return;
  const events = Array.isArray(planned) ? (planned as readonly PlannedEvent[]) : [planned as PlannedEvent];
  if (events.length === 0) return;
  if (!writer) throw new Error('this state machine was defined without an event writer');
  for (const e of events) await writer(trx, e.type, e.merchantId, e.data as never);
};
