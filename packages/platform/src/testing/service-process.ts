import { spawn } from 'node:child_process';
import { TEST_INTERNAL_SECRET, TEST_METRICS_TOKEN } from './service-under-test.js';

/** The URL in the platform's `service started` log line (JSON), if `line` is that line. */
const startedAt = (line: string): string | undefined => {
  try {
    const entry = JSON.parse(line) as { message?: string; url?: string };
    return entry.message === 'service started' ? entry.url : undefined;
  } catch {
    return undefined;
  }
};

export interface ServiceProcess {
  url: string;
  /** SIGKILL: no shutdown at all; leases are left behind and an open transaction never commits. */
  kill(): Promise<void>;
  /** SIGTERM: the ordered shutdown. */
  stop(): Promise<void>;
}

/**
 * A service's real entry point (`src/main.ts`, run through tsx) as its own process, for tests that
 * kill it or run a second replica, configured from `env`. Resolves once it serves and consumes: the
 * platform logs `service started` with its URL only after the subscriptions are in place.
 */
export const startServiceProcess = (
  name: string,
  mainTs: string,
  env: Record<string, string>,
): Promise<ServiceProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
      env: {
        ...process.env,
        INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
        METRICS_TOKEN: TEST_METRICS_TOKEN,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        LOG_PRETTY: 'false',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    let running = true;
    const end = async (signal: NodeJS.Signals) => {
      if (running) child.kill(signal);
      await exited;
    };
    let out = '';
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        const url = startedAt(line);
        if (url) resolve({ url, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') });
      }
    });
    child.once('exit', (code) => {
      running = false;
      reject(new Error(`${name} process exited (${code}): ${errors}`));
    });
  });
