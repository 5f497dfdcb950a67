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
  type EventBus,
  type Logger,
  type RunningService,
  type ServiceDeps,
} from '@stablepay/platform';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { loadChainWatcherConfig, startChainWatcherService } from '@stablepay/chain-watcher';
import { loadGatewayConfig, startGatewayService } from '@stablepay/gateway';
import { loadPaymentsConfig, startPaymentsService } from '@stablepay/payments';
import { loadNotifierConfig, startNotifierService } from '@stablepay/notifier';
import { loadRefundsConfig, startRefundsService } from '@stablepay/refunds';
import { loadOrCreateSecrets } from './secrets.js';

export type StackPort =
  'gateway' | 'payments' | 'chainWatcher' | 'refunds' | 'notifier' | 'checkout' | 'devnet';

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
  /** Extra environment for every service (tuning knobs, test settings). */
  env?: Record<string, string>;
  /** Keep chain state across restarts (default true; tests may want throwaway chains). */
  persistChains?: boolean;
  /** Confirmations required on every devnet chain (default: the devnet preset's). */
  confirmations?: number;
}

export interface RunningStack {
  gatewayUrl: string;
  checkoutUrl: string;
  services: RunningService[];
  devnet: Devnet;
  bus: EventBus;
  stop(): Promise<void>;
}

export const DEFAULT_PORTS: Record<StackPort, number> = {
  gateway: 8080,
  checkout: 8081,
  payments: 8101,
  chainWatcher: 8102,
  refunds: 8103,
  notifier: 8105,
  devnet: 8545,
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
  const embedded = opts.databaseUrl ? undefined : await EmbeddedPostgres.open(join(varDir, 'pglite'));
  const bus = await createBus({ url: opts.amqpUrl, prefix: opts.amqpPrefix, logger });
  const dbs: Knex[] = [];
  const depsFor = async (service: string, schema: string): Promise<ServiceDeps> => {
    const db = await createDatabase({ url: opts.databaseUrl, embedded, schema });
    dbs.push(db);
    return { db, bus, logger: createLogger({ service, level }), metrics: createMetrics(service) };
  };
  const checkoutUrl = `http://${host}:${ports.checkout}/`;
  const devnetRegistry = devnet.registry();
  const registry =
    opts.confirmations === undefined
      ? devnetRegistry
      : {
          ...devnetRegistry,
          chains: devnetRegistry.chains.map((c) => ({ ...c, confirmations: opts.confirmations! })),
        };
  const common: Record<string, string> = { NODE_ENV: 'development', ...secrets, ...opts.env };
  const start = async (name: string, schema: string, run: (deps: ServiceDeps) => Promise<RunningService>) => {
    const service = await run(await depsFor(name, schema));
    services.push(service);
    return service;
  };

  const services: RunningService[] = [];
  try {
    const chainWatcher = await start('chain-watcher', 'chain_watcher', (deps) =>
      startChainWatcherService({
        config: loadChainWatcherConfig({
          VERIFY_POLL_MS: '250',
          TRANSFER_POLL_MS: '250',
          ...common,
          CHAIN_REGISTRY: JSON.stringify(registry),
          // The devnet's relayers are funded with gas; they submit merchants' outgoing transfers.
          RELAYER_PRIVATE_KEYS: JSON.stringify(
            Object.fromEntries(Object.entries(devnet.relayers).map(([name, r]) => [name, r!.privateKey])),
          ),
        }),
        deps,
        port: ports.chainWatcher,
        host,
        ownsConnections: false,
      }),
    );
    const payments = await start('payments', 'payments', (deps) =>
      startPaymentsService({
        config: loadPaymentsConfig({
          ...common,
          CHECKOUT_URL: checkoutUrl,
          ALLOW_INSECURE_URLS: 'true',
          // The devnet's chain ids name real networks; payments maps them like mainnet ids.
          EXTRA_CHAINS: JSON.stringify(
            Object.fromEntries(registry.chains.map((c) => [String(c.chainId), c.name])),
          ),
        }),
        deps,
        port: ports.payments,
        host,
        ownsConnections: false,
      }),
    );
    const refunds = await start('refunds', 'refunds', (deps) =>
      startRefundsService({
        config: loadRefundsConfig({ ...common, CHAIN_WATCHER_URL: chainWatcher.url }),
        deps,
        port: ports.refunds,
        host,
        ownsConnections: false,
      }),
    );
    const notifier = await start('notifier', 'notifier', (deps) =>
      startNotifierService({
        config: loadNotifierConfig({
          // Local development: webhooks to http:// and loopback receivers, mail written as .eml files.
          ALLOW_INSECURE_WEBHOOKS: 'true',
          MAIL_DIR: join(varDir, 'mail'),
          ...common,
        }),
        deps,
        port: ports.notifier,
        host,
        ownsConnections: false,
      }),
    );
    await start('gateway', 'gateway', (deps) =>
      startGatewayService({
        config: loadGatewayConfig({
          ...common,
          PAYMENTS_URL: payments.url,
          CHAIN_WATCHER_URL: chainWatcher.url,
          REFUNDS_URL: refunds.url,
          NOTIFIER_URL: notifier.url,
          SUPPORTED_BLOCKCHAINS: registry.chains.map((c) => c.name).join(','),
        }),
        deps,
        port: ports.gateway,
        host,
        ownsConnections: false,
      }),
    );
  } catch (err) {
    for (const s of [...services].reverse()) await s.stop();
    await bus.close();
    for (const db of dbs) await db.destroy();
    await embedded?.close();
    await devnet.stop();
    throw err;
  }

  const byName = (name: string) => services.find((s) => s.name === name)!;
  let stopping: Promise<void> | undefined;
  return {
    gatewayUrl: byName('gateway').url,
    checkoutUrl,
    services,
    devnet,
    bus,
    stop: () =>
      (stopping ??= shutdownInOrder(
        [
          // The edge first, so nothing new comes in while the rest drains.
          ...[...services].reverse().map((s) => ({ name: s.name, run: () => s.stop() })),
          { name: 'bus', run: () => bus.close() },
          { name: 'databases', run: async () => void (await Promise.all(dbs.map((d) => d.destroy()))) },
          { name: 'embedded postgres', run: () => embedded?.close() },
          { name: 'devnet', run: () => devnet.stop() },
        ],
        logger,
      )),
  };
};
