import type { IntegrationEvent } from '@stablepay/contracts';
import type { LoopWorker, Worker } from '@stablepay/platform';

/** A worker that a consumed event may have given something to do at once. */
export interface WakeOn {
  worker: LoopWorker;
  /** whether the event inserted rows this worker leases */
  by: (event: IntegrationEvent) => boolean;
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
 * rows it inserts (due at once). A woken worker leases only due rows, so any other pass it ran
 * would be a lease query that finds nothing.
 */
export const combineWorkers = (
  parts: CapabilityWorkers[],
): { workers: Worker[]; wake: (event: IntegrationEvent) => void } => {
  const wakeable = parts.flatMap((p) => p.wakeOnEvents);
  return {
    workers: parts.flatMap((p) => p.workers),
    wake: (event) => {
      for (const { worker, by } of wakeable) if (by(event)) worker.wake();
    },
  };
};
