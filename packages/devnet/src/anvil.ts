import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DEVNET_MNEMONIC } from './accounts.js';

export interface AnvilOptions {
  port: number;
  chainId: number;
  /** Load from and dump to this file (anvil `--state`); in-memory when absent. */
  statePath?: string;
  /** Seconds between blocks; automine (one block per transaction) when absent. */
  blockTime?: number;
  /** Also dump the state every so many seconds, not only on exit. */
  stateIntervalSeconds?: number;
  startTimeoutMs?: number;
}

export interface AnvilProcess {
  readonly rpcUrl: string;
  readonly port: number;
  readonly pid: number;
  /** SIGTERM (anvil writes its state file on it), then waits for the process to exit. */
  stop(): Promise<void>;
}

export class AnvilStartError extends Error {
  override readonly name = 'AnvilStartError';
  constructor(
    message: string,
    readonly addressInUse: boolean,
  ) {
    super(message);
  }
}

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': 'anvil-linux-amd64',
  'linux-arm64': 'anvil-linux-arm64',
  'darwin-x64': 'anvil-darwin-amd64',
  'darwin-arm64': 'anvil-darwin-arm64',
  'win32-x64': 'anvil-win32-amd64',
};

/** The anvil executable itself (not the npm wrapper script), so that the PID we hold is anvil's. */
export const anvilBinary = (): string => {
  const key = `${process.platform}-${process.arch}`;
  const pkg = PLATFORM_PACKAGES[key];
  if (!pkg) throw new Error(`No anvil build for ${key}`);
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve(`@foundry-rs/${pkg}/package.json`);
  } catch {
    throw new Error(
      `@foundry-rs/${pkg} is not installed (it is an optional dependency: do not install with --omit=optional)`,
    );
  }
  return join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
};

/** A TCP port that was free on loopback a moment ago. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

// Children still running when this process exits are told to stop, so no orphan keeps a port.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
const trackChild = (child: ChildProcess): void => {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const each of running) each.kill('SIGTERM');
    });
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
};

export const startAnvil = async (options: AnvilOptions): Promise<AnvilProcess> => {
  const args = ['--host', '127.0.0.1', '--port', String(options.port), '--chain-id', String(options.chainId)];
  // One pre-funded, unlocked account: the deployer (index 0). The faucet funds everyone else.
  args.push('--mnemonic', DEVNET_MNEMONIC, '--accounts', '1');
  if (options.statePath) args.push('--state', options.statePath);
  if (options.statePath && options.stateIntervalSeconds)
    args.push('--state-interval', String(options.stateIntervalSeconds));
  if (options.blockTime) args.push('--block-time', String(options.blockTime));

  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      resolve();
    });
  });

  // "Listening on" is printed once our process has bound the port: a port answered by someone else
  // cannot be mistaken for ours. The rest of stdout (a line per RPC call) is read and dropped.
  let stdout = '';
  const listening = new Promise<void>((resolve) => {
    const onData = (chunk: string): void => {
      stdout = (stdout + chunk).slice(-1_000);
      if (stdout.includes(`Listening on 127.0.0.1:${options.port}`)) {
        stdout = '';
        child.stdout?.off('data', onData).on('data', () => undefined);
        resolve();
      }
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
  });
  const failure = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    void exited.then(() => resolve(stderr.trim() || `exited with code ${exitCode}`));
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), options.startTimeoutMs ?? 15_000);
  });
  const why = await Promise.race([listening.then(() => undefined), failure, timeout]);
  clearTimeout(timer);
  if (why !== undefined) {
    child.kill('SIGKILL');
    throw new AnvilStartError(
      `anvil (chain ${options.chainId}) did not start on port ${options.port}: ${why}`,
      /address already in use/i.test(why),
    );
  }

  const stop = async (): Promise<void> => {
    if (exitCode !== undefined) return;
    child.kill('SIGTERM');
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killTimer);
  };
  return { rpcUrl: `http://127.0.0.1:${options.port}`, port: options.port, pid: child.pid ?? -1, stop };
};
