import type { LoopWorker, Worker } from '@stablepay/platform';

/**
 * A capability's background work: every worker it runs, and those a consumed event may have given
 * something to do at once (woken after the event's transaction commits instead of at their next pass).
 */
export interface CapabilityWorkers {
  workers: Worker[];
  wakeOnEvents: LoopWorker[];
}

/** The workers of every capability, and one wake-up for all that an event may concern. */
export const combineWorkers = (parts: CapabilityWorkers[]): { workers: Worker[]; wake: () => void } => {
  const wakeable = parts.flatMap((p) => p.wakeOnEvents);
  return {
    workers: parts.flatMap((p) => p.workers),
    wake: () => {
      for (const w of wakeable) w.wake();
    },
  };
};
