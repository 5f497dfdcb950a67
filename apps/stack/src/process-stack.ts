import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { startDevnetAttestationService, type AttestationService } from '@stablepay/devnet/attestation/index';
import { DEFAULT_PORTS } from './ports.js';
import { loadOrCreateSecrets } from './secrets.js';
import { exited, freePort, spawnReplica, untilReady, type ServiceProcess } from './service-process.js';
import { startServiceProxy, type ServiceProxy } from './service-proxy.js';
import { devnetEnvInput, stackServices, type StackEnvInput, type StackServiceEntry } from './services.js';

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

const urlOf = (port: number) => `http://127.0.0.1:${port}`;

/** Every port is known before anything starts: each service's address, then its replicas'. */
const allocatePorts = async (names: string[], replicas: number) => {
  const ports: Record<string, { address: number; replicas: number[] }> = {};
  for (const name of names) {
    const address = await freePort();
    const own = replicas === 1 ? [address] : await Promise.all(Array.from({ length: replicas }, freePort));
    ports[name] = { address, replicas: own };
  }
  return ports;
};

/** A replica's whole environment: what the stack decides wins over the caller's, which wins over defaults. */
const replicaEnv = (
  opts: ProcessStackOptions,
  entry: StackServiceEntry,
  input: StackEnvInput,
  secrets: Record<string, string>,
  port: number,
): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  NODE_ENV: 'development',
  LOG_LEVEL: opts.logLevel ?? 'error',
  ...entry.defaults?.(input),
  ...secrets,
  ...opts.env,
  ...opts.envOf?.[entry.definition.name as string],
  ...entry.env(input),
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: opts.databaseUrl,
  DATABASE_SCHEMA: entry.schema,
  AMQP_URL: opts.amqpUrl,
  AMQP_PREFIX: opts.amqpPrefix,
});

const mainOf = (entry: StackServiceEntry): string => {
  const require = createRequire(import.meta.url);
  // The package's main module is dist/index.js; its entry point sits beside it.
  return join(dirname(require.resolve(`@stablepay/${entry.definition.name}`)), 'main.js');
};

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
  const names = stackServices.map((e) => e.definition.name as string);
  const ports = await allocatePorts(names, replicas);
  const addresses = Object.fromEntries(names.map((n) => [n, urlOf(ports[n]!.address)]));
  const input = devnetEnvInput(devnet, opts.confirmations, {
    checkoutUrl: `${urlOf(DEFAULT_PORTS.checkout)}/`,
    dashboardUrl: `${urlOf(DEFAULT_PORTS.dashboard)}/`,
    varDir,
    attestationUrl: attestation.url,
    urls: addresses,
  });
  const secrets: Record<string, string> = { ...loadOrCreateSecrets(varDir, {}) };
  if (replicas > 1) {
    try {
      for (const entry of stackServices) await migrateFirst(entry, opts.databaseUrl);
    } catch (err) {
      await attestation.stop();
      await devnet.stop();
      throw err;
    }
  }

  let stopping = false;
  const services: ServiceProcess[] = stackServices.flatMap((entry) => {
    const name = entry.definition.name as string;
    return ports[name]!.replicas.map((port, replica) =>
      spawnReplica({
        name,
        replica,
        port,
        main: mainOf(entry),
        env: replicaEnv(opts, entry, input, secrets, port),
        nodeArgs: opts.nodeArgsOf?.[name],
        logDir: opts.logDir,
        restartOnExit: opts.restartOnExit,
        stopping: () => stopping,
      }),
    );
  });
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
