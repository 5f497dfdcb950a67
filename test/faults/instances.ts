import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@stablepay/stack';

const PG_BIN = '/usr/lib/postgresql/15/bin';
const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';

const listening = (port: number) =>
  new Promise<boolean>((res) => {
    const s = connect(port, '127.0.0.1')
      .once('connect', () => (s.destroy(), res(true)))
      .once('error', () => res(false));
  });

const until = async (what: string, ok: () => Promise<boolean>, withinMs: number) => {
  const deadline = Date.now() + withinMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what} not up within ${withinMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

export interface Instance {
  url: string;
  /** Stops the instance and starts it again on the same port and data; resolves once it serves. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL 15 cluster of its own (initdb into a temp dir, trust auth, a spare port), run as the
 * `postgres` user when this process is root, since PostgreSQL refuses to run as root.
 */
export const startPostgres = async (): Promise<Instance> => {
  const dir = mkdtempSync(join(tmpdir(), 'sp-faults-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), 0);
  const run = (bin: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : `${PG_BIN}/${bin}`,
      asRoot ? ['-u', 'postgres', '--', `${PG_BIN}/${bin}`, ...args] : args,
      {
        cwd: dir,
        stdio: 'ignore',
      },
    );
  const port = await freePort();
  run('initdb', ['-D', `${dir}/data`, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400`;
  const start = () => run('pg_ctl', ['-D', `${dir}/data`, '-l', `${dir}/log`, '-w', '-o', options, 'start']);
  // Immediate: the server stops without a checkpoint and recovers from its WAL, as after a crash.
  const halt = () => run('pg_ctl', ['-D', `${dir}/data`, '-m', 'immediate', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async () => {
      halt();
      start();
    },
    stop: async () => {
      try {
        halt();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
};

/**
 * A RabbitMQ node of its own: its node name, AMQP and distribution ports, data, logs and an empty
 * plugin list in a temp dir, so the machine's broker (default node name, 5672) is never touched.
 */
export const startRabbit = async (): Promise<
  Instance & { nodename: string; queues(): Array<{ name: string; messages: number }> }
> => {
  const dir = mkdtempSync(join(tmpdir(), 'sp-faults-mq-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const distPort = await freePort();
  const nodename = `spfaults${port}@localhost`;
  writeFileSync(
    join(dir, 'rabbitmq.conf'),
    `listeners.tcp.local = 127.0.0.1:${port}\nloopback_users = none\n`,
  );
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    RABBITMQ_NODENAME: nodename,
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
  };
  let child: ChildProcess | undefined;
  const start = async () => {
    // Its own process group: stopping it reaches the Erlang VM under the start script.
    child = spawn(RABBITMQ_SERVER, [], { env, cwd: dir, detached: true, stdio: 'ignore' });
    const started = child;
    await until(
      `RabbitMQ on ${port}`,
      async () => {
        if (started.exitCode !== null) throw new Error(`rabbitmq-server exited with ${started.exitCode}`);
        return listening(port);
      },
      60_000,
    );
  };
  const halt = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise<void>((r) => c.once('exit', () => r()));
    process.kill(-c.pid!, 'SIGTERM');
    await gone;
    // The Erlang VM outlives the start script for a moment; its ports close last.
    await until(
      `RabbitMQ on ${port} to stop`,
      async () => !(await listening(port)) && !(await listening(distPort)),
      30_000,
    );
  };
  await start();
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    nodename,
    queues: () =>
      execFileSync(
        '/usr/lib/rabbitmq/bin/rabbitmqctl',
        ['-n', nodename, '-q', 'list_queues', '--no-table-headers', 'name', 'messages'],
        { env, cwd: dir },
      )
        .toString()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [name, messages] = line.split('\t');
          return { name: name!, messages: Number(messages) };
        }),
    restart: async () => {
      await halt();
      await start();
    },
    stop: async () => {
      try {
        await halt();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
};
