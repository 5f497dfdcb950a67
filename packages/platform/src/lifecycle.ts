import type { Logger } from './logger.js';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void> | void;
}

/**
 * Runs the steps in order (not ready → stop consumers → drain → close server → flush →
 * disconnect), each bounded by the grace period, logging what failed and carrying on.
 */
export const shutdownInOrder = async (
  steps: ShutdownStep[],
  logger: Logger,
  graceMs = 10_000,
): Promise<void> => {
  for (const step of steps) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(step.run),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${graceMs} ms`)), graceMs);
        }),
      ]);
    } catch (err) {
      logger.warn('shutdown step failed', {
        step: step.name,
        err: err instanceof Error ? err.message : String(err),
      });
    } finally {
      clearTimeout(timer);
    }
  }
};

/** Calls `stop` once on SIGTERM or SIGINT, then exits. */
export const onTermination = (stop: () => Promise<void>, logger: Logger): void => {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    stop()
      .then(() => process.exit(0))
      .catch((err) => {
        logger.error('shutdown failed', { err });
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => handler('SIGTERM'));
  process.once('SIGINT', () => handler('SIGINT'));
};
