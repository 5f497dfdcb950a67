import type { Logger } from '@stablepay/platform';

/**
 * Test-only fault injection: the process kills itself, as a crash or an OOM kill would, at a point
 * where a naive sender would lose or repeat a transaction. Nothing runs after it.
 */
export const killAt = <P extends string>(
  logger: Logger,
  setting: { name: string; point: P | undefined },
  point: P,
): void => {
  if (setting.point !== point) return;
  logger.warn(`${setting.name} reached: killing the process`, { point });
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
};
