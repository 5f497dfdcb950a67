import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface ServiceProcess {
  name: string;
  replica: number;
  /** The replica's own URL (not the service's address when it has a proxy). */
  url: string;
  port: number;
  /** The current process; replaced by `start()`. */
  child: ChildProcess;
  /** Times the process exited without being asked to. */
  unaskedExits: number;
  /** Sends `signal` (default SIGKILL) and waits for the exit; the replica stays down until `start()`. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the process again on the same port and waits until it answers /readyz. */
  start(): Promise<void>;
}

export interface ReplicaSpec {
  name: string;
  replica: number;
  port: number;
  /** The service's built entry point. */
  main: string;
  /** The whole environment of the process: nothing else of this one's leaks in. */
  env: Record<string, string>;
  nodeArgs?: string[];
  /** Stdout and stderr appended to `<logDir>/<name>-<replica>.log` (else stderr inherited). */
  logDir?: string;
  restartOnExit?: boolean;
  /** Whether the whole stack is stopping, when exits are expected. */
  stopping(): boolean;
}

/** A port free on loopback right now (the caller binds it soon after). */
export const freePort = () =>
  new Promise<number>((res, rej) => {
    const srv = createServer()
      .once('error', rej)
      .listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => res(port));
      });
  });

export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

const READY_WITHIN_MS = 120_000;

export const untilReady = async (s: ServiceProcess) => {
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (s.child.exitCode !== null) throw new Error(`${s.name} exited with ${s.child.exitCode}`);
    const ready = await fetch(`${s.url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`${s.name} was not ready within ${READY_WITHIN_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** One replica of a service as its own process, restarted on an unasked exit when the spec says so. */
export const spawnReplica = (spec: ReplicaSpec): ServiceProcess => {
  const { name, replica, port } = spec;
  let asked = false;
  const spawnChild = () => {
    const log = spec.logDir ? openSync(join(spec.logDir, `${name}-${replica}.log`), 'a') : undefined;
    const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), spec.main], {
      env: spec.env,
      stdio: ['ignore', log ?? 'ignore', log ?? 'inherit'],
    });
    asked = false;
    child.once('exit', () => {
      if (asked || spec.stopping()) return;
      s.unaskedExits++;
      if (spec.restartOnExit) setTimeout(() => !spec.stopping() && !asked && (s.child = spawnChild()), 500);
    });
    return child;
  };
  const s: ServiceProcess = {
    name,
    replica,
    url: `http://127.0.0.1:${port}`,
    port,
    child: undefined as unknown as ChildProcess,
    unaskedExits: 0,
    async kill(signal = 'SIGKILL') {
      asked = true;
      s.child.kill(signal);
      await exited(s.child);
    },
    async start() {
      if (s.child.exitCode === null && s.child.signalCode === null) throw new Error(`${name} is running`);
      s.child = spawnChild();
      await untilReady(s);
    },
  };
  s.child = spawnChild();
  return s;
};
