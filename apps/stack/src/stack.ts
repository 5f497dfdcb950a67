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
import { startDevnetAttestationService, type AttestationService } from '@stablepay/devnet/attestation/index';
import { startCheckoutServer, type CheckoutServer } from '@stablepay/checkout/server';
import { startDashboardServer, type DashboardServer } from '@stablepay/dashboard/server';
import { loadOrCreateSecrets } from './secrets.js';
import { resolvePorts, type StackPort } from './ports.js';
import { devnetEnvInput, stackServices, type StackEnvInput } from './services.js';

export interface StackOptions {
  /** Where embedded data, chain state, secrets and devnet.json live. */
  varDir: string;
  /** PostgreSQL URL: every service gets its own schema in it. Embedded PGlite when absent. */
  databaseUrl?: string;
  /** RabbitMQ URL; the in-process bus when absent. */
  amqpUrl?: string;
  amqpPrefix?: string;
  host?: string;
  /** Ports; 0 picks a free one, a port left out is its default. `devnet` is the first chain's RPC port. */
  ports?: Partial<Record<StackPort, number>>;
  logLevel?: string;
  /** The built checkout app to serve (default: the @stablepay/checkout workspace's dist). */
  checkoutDir?: string;
  /** Origins of shop pages that may open the widget for a merchant without a session (WIDGET_ORIGINS). */
  widgetOrigins?: readonly string[];
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

/** What listens before the services start, and what they share. */
interface Edge {
  devnet: Devnet;
  attestation: AttestationService;
  embedded?: EmbeddedPostgres;
  bus: EventBus;
  checkout: CheckoutServer;
  dashboard: DashboardServer;
}

/** Whatever is running so far, so that a start failing half-way stops what it started. */
interface Started extends Partial<Edge> {
  services: RunningService[];
  dbs: Knex[];
}

interface StartContext {
  opts: StackOptions;
  varDir: string;
  level: string;
  host: string;
  ports: Record<StackPort, number>;
  logger: Logger;
}

const stopStarted = (started: Started, logger: Logger) =>
  shutdownInOrder(
    [
      // The edge first, so nothing new comes in while the rest drains.
      { name: 'checkout page', run: () => started.checkout?.stop() },
      { name: 'dashboard', run: () => started.dashboard?.stop() },
      ...[...started.services].reverse().map((s) => ({ name: s.name, run: () => s.stop() })),
      { name: 'bus', run: () => started.bus?.close() },
      { name: 'databases', run: async () => void (await Promise.all(started.dbs.map((d) => d.destroy()))) },
      { name: 'embedded postgres', run: () => started.embedded?.close() },
      { name: 'attestation service', run: () => started.attestation?.stop() },
      { name: 'devnet', run: () => started.devnet?.stop() },
    ],
    logger,
  );

const startEdge = async (
  { opts, varDir, host, ports, logger }: StartContext,
  started: Started,
): Promise<Edge> => {
  const devnet = (started.devnet = await startDevnet({
    stateDir: opts.persistChains === false ? undefined : join(varDir, 'chains'),
    basePort: ports.devnet,
  }));
  const attestation = (started.attestation = await startDevnetAttestationService(devnet, {
    port: ports.attestation,
  }));
  const embedded = (started.embedded = opts.databaseUrl
    ? undefined
    : await EmbeddedPostgres.open(join(varDir, 'pglite')));
  const bus = (started.bus = await createBus({ url: opts.amqpUrl, prefix: opts.amqpPrefix, logger }));
  // Listening before the services start, so that payments learns the page's real address even on port 0.
  const checkout = (started.checkout = await startCheckoutServer({
    dir: opts.checkoutDir,
    host,
    port: ports.checkout,
    widgetOrigins: opts.widgetOrigins,
  }));
  const dashboard = (started.dashboard = await startDashboardServer({
    dir: opts.dashboardDir,
    host,
    port: ports.dashboard,
  }));
  return { devnet, attestation, embedded, bus, checkout, dashboard };
};

/** In table order: each service's environment may name the URLs of those started before it. */
const startServices = async (ctx: StartContext, edge: Edge, input: StackEnvInput, started: Started) => {
  const common: Record<string, string> = {
    NODE_ENV: 'development',
    ...loadOrCreateSecrets(ctx.varDir),
    ...ctx.opts.env,
  };
  for (const entry of stackServices) {
    const name = entry.definition.name;
    const db = await createDatabase({
      url: ctx.opts.databaseUrl,
      embedded: edge.embedded,
      schema: entry.schema,
    });
    started.dbs.push(db);
    const config = entry.definition.loadConfig({
      ...entry.defaults?.(input),
      ...common,
      ...entry.env(input),
    });
    const service = await startDefinedService(entry.definition, {
      config,
      deps: {
        db,
        bus: edge.bus,
        logger: createLogger({ service: name, level: ctx.level }),
        metrics: createMetrics(name),
      },
      port: ctx.ports[entry.port],
      host: ctx.host,
      ownsConnections: false,
    });
    started.services.push(service);
    input.urls[name] = service.url;
  }
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
  const ctx: StartContext = {
    opts,
    varDir,
    level,
    host: opts.host ?? '127.0.0.1',
    ports: resolvePorts(opts.ports),
    logger,
  };
  const started: Started = { services: [], dbs: [] };
  let edge: Edge;
  let input: StackEnvInput;
  try {
    edge = await startEdge(ctx, started);
    input = devnetEnvInput(edge.devnet, opts.confirmations, {
      checkoutUrl: edge.checkout.url,
      dashboardUrl: edge.dashboard.url,
      varDir,
      attestationUrl: edge.attestation.url,
      urls: {},
    });
    await startServices(ctx, edge, input, started);
  } catch (err) {
    await stopStarted(started, logger);
    throw err;
  }

  const gatewayUrl = input.urls.gateway!;
  // The page talks to the gateway, to every chain's RPC endpoint and to the attestation API only.
  edge.checkout.configure({ gatewayUrl }, [
    gatewayUrl,
    ...input.registry.chains.flatMap((c) => c.rpcUrls),
    edge.attestation.url,
  ]);
  // The dashboard talks to the gateway alone, with the merchant's bearer token.
  edge.dashboard.configure({ gatewayUrl });
  let stopping: Promise<void> | undefined;
  return {
    gatewayUrl,
    checkoutUrl: edge.checkout.url,
    dashboardUrl: edge.dashboard.url,
    services: started.services,
    devnet: edge.devnet,
    attestation: edge.attestation,
    bus: edge.bus,
    stop: () => (stopping ??= stopStarted(started, logger)),
  };
};
