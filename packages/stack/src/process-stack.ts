import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { startDevnetAttestationService, type AttestationService } from '@stablepay/devnet/attestation/index';
import { loadOrCreateSecrets } from './secrets.js';
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
}

export interface ServiceProcess {
  name: string;
  url: string;
  child: ChildProcess;
}

export interface ProcessStack {
  gatewayUrl: string;
  devnet: Devnet;
  attestation: AttestationService;
  services: ServiceProcess[];
  byName(name: string): ServiceProcess;
  stop(): Promise<void>;
}

const freePort = () =>
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

/**
 * The stack as deployed: the devnet and its attestation service here, every service as its own
 * process (its built entry point, configured only through its environment, as from the same table
 * as the embedded stack) on PostgreSQL and RabbitMQ. For benches that must not measure one shared
 * event loop, and for tests that kill services.
 */
export const startProcessStack = async (opts: ProcessStackOptions): Promise<ProcessStack> => {
  const varDir = resolve(opts.varDir);
  mkdirSync(varDir, { recursive: true });
  const devnet = await startDevnet({ basePort: 0 });
  const attestation = await startDevnetAttestationService(devnet, { port: 0 });
  const registry = devnet.registry();
  const ports = Object.fromEntries(
    await Promise.all(stackServices.map(async (e) => [e.definition.name, await freePort()] as const)),
  );
  const urlOf = (name: string) => `http://127.0.0.1:${ports[name]}`;
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
    urls: Object.fromEntries(stackServices.map((e) => [e.definition.name, urlOf(e.definition.name)])),
  };
  const secrets = loadOrCreateSecrets(varDir, {});
  const services: ServiceProcess[] = stackServices.map((entry) => {
    const name = entry.definition.name as string;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      LOG_LEVEL: opts.logLevel ?? 'error',
      ...entry.defaults?.(input),
      ...secrets,
      ...opts.env,
      ...opts.envOf?.[name],
      ...entry.env(input),
      PORT: String(ports[name]),
      HOST: '127.0.0.1',
      DATABASE_URL: opts.databaseUrl,
      DATABASE_SCHEMA: entry.schema,
      AMQP_URL: opts.amqpUrl,
      AMQP_PREFIX: opts.amqpPrefix,
    };
    const child = spawn(process.execPath, [...(opts.nodeArgsOf?.[name] ?? []), mainOf(entry)], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return { name, url: urlOf(name), child };
  });
  const stop = async () => {
    for (const s of services) s.child.kill('SIGTERM');
    await Promise.all(services.map((s) => exited(s.child)));
    await attestation.stop();
    await devnet.stop();
  };
  try {
    const deadline = Date.now() + 120_000;
    for (const s of services) {
      for (;;) {
        if (s.child.exitCode !== null) throw new Error(`${s.name} exited with ${s.child.exitCode}`);
        const ready = await fetch(`${s.url}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        if (Date.now() > deadline) throw new Error(`${s.name} was not ready within 120 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    gatewayUrl: urlOf('gateway'),
    devnet,
    attestation,
    services,
    byName: (name) => services.find((s) => s.name === name)!,
    stop,
  };
};
