import { fileURLToPath } from 'node:url';
import { startServiceProcess, type ServiceProcess } from '@stablepay/platform/testing';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export type NotifierProcess = ServiceProcess;

/** The notifier's real entry point as its own process (to kill it, or as a second replica). */
export const startNotifierProcess = (env: Record<string, string>): Promise<NotifierProcess> =>
  startServiceProcess('notifier', MAIN, env);
