import type { EventType } from '@stablepay/contracts';
import type { LoopWorker, Worker } from '@stablepay/platform';

/** A worker that a consumed event of these types may have given something to do at once. */
export interface WakeOn {
  worker: LoopWorker;
  events: readonly EventType[];
}

/**
 * A capability's background work: every worker it runs, and those a consumed event may have given
 * something to do at once (woken after the event's transaction commits instead of at their next pass).
 */
export interface CapabilityWorkers {
  workers: Worker[];
  wakeOnEvents: readonly WakeOn[];
}

/**
 * The workers of every capability, and the wake-up after a consumed event: only the workers whose
 * rows its type inserts (due at once). A woken worker leases only due rows, so any other pass it ran
 * would be a lease query that finds nothing.
 */
export const combineWorkers = (
  parts: CapabilityWorkers[],
): { workers: Worker[]; wake: (type: EventType) => void } => {
  const byType = new Map<EventType, LoopWorker[]>();
  for (const { worker, events } of parts.flatMap((p) => p.wakeOnEvents))
    for (const type of events) byType.set(type, [...(byType.get(type) ?? []), worker]);
  return {
    workers: parts.flatMap((p) => p.workers),
    wake: (type) => {
      for (const w of byType.get(type) ?? []) w.wake();
    },
  };
};
