import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Knex } from 'knex';
import {
  EmbeddedPostgres,
  createBus,
  createDatabase,
  createLogger,
  createMetrics,
  shutdownInOrder,
  startDefinedService,
  type EventBus,
  type Logger,
  type RunningService,
} from '@stablepay/platform';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import {
  DEVNET_ATTESTATION_PORT,
  startDevnetAttestationService,
  type AttestationService,
} from '@stablepay/devnet/attestation/index';
import { startCheckoutServer, type CheckoutServer } from '@stablepay/checkout/server';
import { startDashboardServer, type DashboardServer } from '@stablepay/dashboard/server';
import { loadOrCreateSecrets } from './secrets.js';
import { stackServices, type StackEnvInput } from './services.js';

export type StackPort =
  | 'gateway'
  | 'payments'
  | 'chainWatcher'
  | 'refunds'
  | 'invoicing'
  | 'notifier'
  | 'checkout'
  | 'dashboard'
  | 'devnet'
  | 'attestation';

export interface StackOptions {
  /** Where embedded data, chain state, secrets and devnet.json live. */
  varDir: string;
  /** PostgreSQL URL: every service gets its own schema in it. Embedded PGlite when absent. */
  databaseUrl?: string;
  /** RabbitMQ URL; the in-process bus when absent. */
  amqpUrl?: string;
  amqpPrefix?: string;
  host?: string;
  /** Ports; 0 picks a free one. `devnet` is the first chain's RPC port. */
  ports?: Partial<Record<StackPort, number>>;
  logLevel?: string;
  /** The built checkout app to serve (default: the @stablepay/checkout workspace's dist). */
  checkoutDir?: string;
  /** The built dashboard to serve (default: the @stablepay/dashboard workspace's dist). */
  dashboardDir?: string;
  /** Extra environment for every service (tuning knobs, test settings). */
  env?: Record<string, string>;
  /** Keep chain state across restarts (default true; tests may want throwaway chains). */
  persistChains?: boolean;
  /** Confirmations required on every devnet chain (default: the devnet preset's). */
  confirmations?: number;
}

export interface RunningStack {
  gatewayUrl: string;
  /** The hosted checkout page (and the widget's files); a session's url is `${checkoutUrl}?session=<id>`. */
  checkoutUrl: string;
  /** The merchant dashboard; the gateway allows its origin (CORS) on sign-in and bearer-token routes. */
  dashboardUrl: string;
  services: RunningService[];
  devnet: Devnet;
  /** The devnet's stand-in for Circle's attestation API (and forwarding service). */
  attestation: AttestationService;
  bus: EventBus;
  stop(): Promise<void>;
}

export const DEFAULT_PORTS: Record<StackPort, number> = {
  gateway: 8080,
  checkout: 8081,
  dashboard: 8082,
  payments: 8101,
  chainWatcher: 8102,
  refunds: 8103,
  invoicing: 8104,
  notifier: 8105,
  devnet: 8545,
  attestation: DEVNET_ATTESTATION_PORT,
};

/**
 * Runs the devnet and every service in one process on shared infrastructure: one database (a
 * schema each, each service running its own migrations) and one bus. Services still talk to each
 * other only through the bus and HTTP, exactly as when deployed apart.
 */
export const startStack = async (opts: StackOptions): Promise<RunningStack> => {
  const varDir = resolve(opts.varDir);
  mkdirSync(varDir, { recursive: true });
  const level = opts.logLevel ?? 'info';
  const logger: Logger = createLogger({ service: 'stack', level });
  const secrets = loadOrCreateSecrets(varDir);
  const ports = { ...DEFAULT_PORTS, ...opts.ports };
  const host = opts.host ?? '127.0.0.1';

  const devnet = await startDevnet({
    stateDir: opts.persistChains === false ? undefined : join(varDir, 'chains'),
    basePort: ports.devnet,
  });
  const attestation = await startDevnetAttestationService(devnet, { port: ports.attestation });
  const embedded = opts.databaseUrl ? undefined : await EmbeddedPostgres.open(join(varDir, 'pglite'));
  const bus = await createBus({ url: opts.amqpUrl, prefix: opts.amqpPrefix, logger });
  const dbs: Knex[] = [];
  // Listening before the services start, so that payments learns the page's real address even on port 0.
  const checkout: CheckoutServer = await startCheckoutServer({
    dir: opts.checkoutDir,
    host,
    port: ports.checkout,
  });
  const checkoutUrl = checkout.url;
  // Callers that choose their ports (tests, benches) and leave the dashboard out get a free one, so
  // suites running side by side never contend for 8082.
  const dashboard: DashboardServer = await startDashboardServer({
    dir: opts.dashboardDir,
    host,
    port: opts.ports?.dashboard ?? (opts.ports ? 0 : DEFAULT_PORTS.dashboard),
  });
  const devnetRegistry = devnet.registry();
  const registry =
    opts.confirmations === undefined
      ? devnetRegistry
      : {
          ...devnetRegistry,
          chains: devnetRegistry.chains.map((c) => ({ ...c, confirmations: opts.confirmations! })),
        };
  const input: StackEnvInput = {
    registry,
    relayerKeys: Object.fromEntries(
      Object.entries(devnet.relayers).map(([name, r]) => [name, r!.privateKey]),
    ),
    checkoutUrl,
    dashboardUrl: dashboard.url,
    varDir,
    attestationUrl: attestation.url,
    urls: {},
  };
  const common: Record<string, string> = { NODE_ENV: 'development', ...secrets, ...opts.env };

  const services: RunningService[] = [];
  try {
    // In table order: each service's environment may name the URLs of those started before it.
    for (const entry of stackServices) {
      const db = await createDatabase({ url: opts.databaseUrl, embedded, schema: entry.schema });
      dbs.push(db);
      const deps = {
        db,
        bus,
        logger: createLogger({ service: entry.definition.name, level }),
        metrics: createMetrics(entry.definition.name),
      };
      const config = entry.definition.loadConfig({
        ...entry.defaults?.(input),
        ...common,
        ...entry.env(input),
      });
      const service = await startDefinedService(entry.definition, {
        config,
        deps,
        port: ports[entry.port],
        host,
        ownsConnections: false,
      });
      services.push(service);
      input.urls[entry.definition.name] = service.url;
    }
  } catch (err) {
    for (const s of [...services].reverse()) await s.stop();
    await bus.close();
    for (const db of dbs) await db.destroy();
    await embedded?.close();
    await checkout.stop();
    await dashboard.stop();
    await attestation.stop();
    await devnet.stop();
    throw err;
  }

  const byName = (name: string) => services.find((s) => s.name === name)!;
  // The page talks to the gateway, to every chain's RPC endpoint and to the attestation API only.
  checkout.configure({ gatewayUrl: byName('gateway').url }, [
    byName('gateway').url,
    ...registry.chains.flatMap((c) => c.rpcUrls),
    attestation.url,
  ]);
  // The dashboard talks to the gateway alone, with the merchant's bearer token.
  dashboard.configure({ gatewayUrl: byName('gateway').url });
  let stopping: Promise<void> | undefined;
  return {
    gatewayUrl: byName('gateway').url,
    checkoutUrl,
    dashboardUrl: dashboard.url,
    services,
    devnet,
    attestation,
    bus,
    stop: () =>
      (stopping ??= shutdownInOrder(
        [
          // The edge first, so nothing new comes in while the rest drains.
          { name: 'checkout page', run: () => checkout.stop() },
          { name: 'dashboard', run: () => dashboard.stop() },
          ...[...services].reverse().map((s) => ({ name: s.name, run: () => s.stop() })),
          { name: 'bus', run: () => bus.close() },
          { name: 'databases', run: async () => void (await Promise.all(dbs.map((d) => d.destroy()))) },
          { name: 'embedded postgres', run: () => embedded?.close() },
          { name: 'attestation service', run: () => attestation.stop() },
          { name: 'devnet', run: () => devnet.stop() },
        ],
        logger,
      )),
  };
};
