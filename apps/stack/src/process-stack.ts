import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { startDevnetAttestationService, type AttestationService } from '@stablepay/devnet/attestation/index';
import { loadOrCreateSecrets } from './secrets.js';
import { startServiceProxy, type ServiceProxy } from './service-proxy.js';
import { stackServices, type StackEnvInput, type StackServiceEntry } from './services.js';

export interface ProcessStackOptions {
  varDir: string;
  /** PostgreSQL: every service gets its own schema in it, as in the embedded stack. */
  databaseUrl: string;
  amqpUrl: string;
  amqpPrefix: string;
  logLevel?: string;
  /** Extra environment for every service, or per service name (wins over the shared one). */
  env?: Record<string, string>;
  envOf?: Record<string, Record<string, string>>;
  /** Node options per service name, e.g. `['--cpu-prof', '--cpu-prof-dir=var/prof']`. */
  nodeArgsOf?: Record<string, string[]>;
  confirmations?: number;
  /** Devnet customer accounts (the devnet's default when absent). */
  customers?: number;
  /**
   * Processes per service (default 1). With more, the service's address is a round-robin proxy in
   * front of its replicas, as a Kubernetes Service, and every other service reaches it there.
   */
  replicas?: number;
  /** Start a replica again when it exits unasked, as a Deployment's restart policy does. */
  restartOnExit?: boolean;
  /** Each replica's stdout and stderr appended to `<logDir>/<service>-<replica>.log` (else stderr inherited). */
  logDir?: string;
}

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

export interface ProcessStack {
  gatewayUrl: string;
  devnet: Devnet;
  attestation: AttestationService;
  /** Every replica of every service. */
  services: ServiceProcess[];
  /** Where the other services reach each service: its proxy, or its only replica. */
  addresses: Record<string, string>;
  /** The first replica of a service. */
  byName(name: string): ServiceProcess;
  replicasOf(name: string): ServiceProcess[];
  stop(): Promise<void>;
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

const mainOf = (entry: StackServiceEntry): string => {
  const require = createRequire(import.meta.url);
  // The package's main module is dist/index.js; its entry point sits beside it.
  return join(dirname(require.resolve(`@stablepay/${entry.definition.name}`)), 'main.js');
};

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

const READY_WITHIN_MS = 120_000;

/** The deployment's migration step (a Kubernetes init container): one runner at a time per schema. */
const MIGRATE = fileURLToPath(new URL('../../../deploy/migrate.mjs', import.meta.url));

/**
 * Replicas starting together on a fresh database race on knex's own bookkeeping tables; deployments
 * run each service's migrations first, under an advisory lock (deploy/migrate.mjs), and so does this.
 */
const migrateFirst = async (entry: StackServiceEntry, databaseUrl: string) => {
  await promisify(execFile)(process.execPath, [MIGRATE, entry.definition.name as string], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, DATABASE_SCHEMA: entry.schema },
  });
};

const untilReady = async (s: ServiceProcess) => {
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

/**
 * The stack as deployed: the devnet and its attestation service here, every service as its own
 * process (its built entry point, configured only through its environment, as from the same table
 * as the embedded stack) on PostgreSQL and RabbitMQ, optionally several replicas of each behind one
 * address. For benches that must not measure one shared event loop, and for tests that kill services.
 */
export const startProcessStack = async (opts: ProcessStackOptions): Promise<ProcessStack> => {
  const varDir = resolve(opts.varDir);
  mkdirSync(varDir, { recursive: true });
  if (opts.logDir) mkdirSync(opts.logDir, { recursive: true });
  const replicas = opts.replicas ?? 1;
  const devnet = await startDevnet({ basePort: 0, ...(opts.customers ? { customers: opts.customers } : {}) });
  const attestation = await startDevnetAttestationService(devnet, { port: 0 });
  const registry = devnet.registry();
  // Every port is known before anything starts: the service's address, then its replicas'.
  const names = stackServices.map((e) => e.definition.name as string);
  const ports: Record<string, { address: number; replicas: number[] }> = {};
  for (const name of names) {
    const address = await freePort();
    const own = replicas === 1 ? [address] : await Promise.all(Array.from({ length: replicas }, freePort));
    ports[name] = { address, replicas: own };
  }
  const urlOf = (port: number) => `http://127.0.0.1:${port}`;
  const addresses = Object.fromEntries(names.map((n) => [n, urlOf(ports[n]!.address)]));
  const input: StackEnvInput = {
    registry:
      opts.confirmations === undefined
        ? registry
        : { ...registry, chains: registry.chains.map((c) => ({ ...c, confirmations: opts.confirmations! })) },
    relayerKeys: Object.fromEntries(
      Object.entries(devnet.relayers).map(([name, r]) => [name, r!.privateKey]),
    ),
    checkoutUrl: 'http://127.0.0.1:8081/',
    dashboardUrl: 'http://127.0.0.1:8082/',
    varDir,
    attestationUrl: attestation.url,
    urls: addresses,
  };
  const secrets = loadOrCreateSecrets(varDir, {});
  let stopping = false;
  if (replicas > 1) {
    try {
      for (const entry of stackServices) await migrateFirst(entry, opts.databaseUrl);
    } catch (err) {
      await attestation.stop();
      await devnet.stop();
      throw err;
    }
  }

  const replicaOf = (entry: StackServiceEntry, replica: number): ServiceProcess => {
    const name = entry.definition.name as string;
    const port = ports[name]!.replicas[replica]!;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      LOG_LEVEL: opts.logLevel ?? 'error',
      ...entry.defaults?.(input),
      ...secrets,
      ...opts.env,
      ...opts.envOf?.[name],
      ...entry.env(input),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: opts.databaseUrl,
      DATABASE_SCHEMA: entry.schema,
      AMQP_URL: opts.amqpUrl,
      AMQP_PREFIX: opts.amqpPrefix,
    };
    let asked = false;
    const spawnChild = () => {
      const log = opts.logDir ? openSync(join(opts.logDir, `${name}-${replica}.log`), 'a') : undefined;
      const child = spawn(process.execPath, [...(opts.nodeArgsOf?.[name] ?? []), mainOf(entry)], {
        env,
        stdio: ['ignore', log ?? 'ignore', log ?? 'inherit'],
      });
      asked = false;
      child.once('exit', () => {
        if (asked || stopping) return;
        s.unaskedExits++;
        if (opts.restartOnExit) setTimeout(() => !stopping && !asked && (s.child = spawnChild()), 500);
      });
      return child;
    };
    const s: ServiceProcess = {
      name,
      replica,
      url: urlOf(port),
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

  const services: ServiceProcess[] = stackServices.flatMap((entry) =>
    Array.from({ length: replicas }, (_, n) => replicaOf(entry, n)),
  );
  const proxies: ServiceProxy[] = [];
  const stop = async () => {
    stopping = true;
    for (const s of services) s.child.kill('SIGTERM');
    await Promise.all(services.map((s) => exited(s.child)));
    await Promise.all(proxies.map((p) => p.close()));
    await attestation.stop();
    await devnet.stop();
  };
  try {
    if (replicas > 1)
      for (const name of names)
        proxies.push(await startServiceProxy(ports[name]!.address, ports[name]!.replicas));
    for (const s of services) await untilReady(s);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    gatewayUrl: addresses.gateway!,
    devnet,
    attestation,
    services,
    addresses,
    byName: (name) => services.find((s) => s.name === name)!,
    replicasOf: (name) => services.filter((s) => s.name === name),
    stop,
  };
};
