import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChainRegistry } from '@stablepay/contracts';
import { TEST_INTERNAL_SECRET } from '@stablepay/platform/testing';
import { KEK } from './harness.js';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface ChildWatcher {
  process: ChildProcess;
  /** stdout and stderr so far, for a failure message */
  output(): string;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
}

/**
 * The real service as its own process (src/main.ts, configured from the environment only), as
 * production runs it, so that it can die the way a process dies.
 */
export const spawnWatcher = (opts: {
  registry: ChainRegistry;
  databaseUrl: string;
  amqpUrl: string;
  prefix: string;
  env: Record<string, string>;
}): ChildWatcher => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: opts.databaseUrl,
      AMQP_URL: opts.amqpUrl,
      AMQP_PREFIX: opts.prefix,
      CHAIN_REGISTRY: JSON.stringify(opts.registry),
      WALLET_KEK: KEK,
      INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
      ...opts.env,
    },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    output: () => output,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
};
