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
import { loadGatewayConfig, startGatewayService } from '@stablepay/gateway';
import { loadPaymentsConfig, startPaymentsService } from '@stablepay/payments';
import { loadOrCreateSecrets } from './secrets.js';

export interface StackOptions {
  /** Where embedded data, secrets and devnet.json live. */
  varDir: string;
  /** PostgreSQL URL: every service gets its own schema in it. Embedded PGlite when absent. */
  databaseUrl?: string;
  /** RabbitMQ URL; the in-process bus when absent. */
  amqpUrl?: string;
  amqpPrefix?: string;
  host?: string;
  ports?: Partial<Record<'gateway' | 'payments' | 'checkout', number>>;
  logLevel?: string;
  /** Extra environment for every service (e.g. tuning in tests). */
  env?: Record<string, string>;
}

export interface RunningStack {
  gatewayUrl: string;
  paymentsUrl: string;
  checkoutUrl: string;
  services: RunningService[];
  bus: EventBus;
  stop(): Promise<void>;
}

export const DEFAULT_PORTS = { gateway: 8080, checkout: 8081, payments: 8101 } as const;

/**
 * Runs every service in one process on shared infrastructure: one database (a schema each, each
 * service running its own migrations) and one bus. Each service still talks to the others only
 * through the bus and the gateway's HTTP forwarding, exactly as when deployed apart.
 */
export const startStack = async (opts: StackOptions): Promise<RunningStack> => {
  const varDir = resolve(opts.varDir);
  mkdirSync(varDir, { recursive: true });
  const logger: Logger = createLogger({ service: 'stack', level: opts.logLevel ?? 'info' });
  const secrets = loadOrCreateSecrets(varDir);
  const ports = { ...DEFAULT_PORTS, ...opts.ports };
  const host = opts.host ?? '127.0.0.1';

  const embedded = opts.databaseUrl ? undefined : await EmbeddedPostgres.open(join(varDir, 'pglite'));
  const bus = await createBus({ url: opts.amqpUrl, prefix: opts.amqpPrefix, logger });
  const dbs: Knex[] = [];
  const depsFor = async (service: string, schema: string): Promise<ServiceDeps> => {
    const db = await createDatabase({ url: opts.databaseUrl, embedded, schema });
    dbs.push(db);
    return {
      db,
      bus,
      logger: createLogger({ service, level: opts.logLevel ?? 'info' }),
      metrics: createMetrics(service),
    };
  };
  const checkoutUrl = `http://${host}:${ports.checkout}/`;
  const common: Record<string, string> = {
    NODE_ENV: 'development',
    ...secrets,
    ...opts.env,
  };

  const services: RunningService[] = [];
  try {
    const paymentsConfig = loadPaymentsConfig({
      ...common,
      CHECKOUT_URL: checkoutUrl,
      ALLOW_INSECURE_URLS: 'true',
    });
    services.push(
      await startPaymentsService({
        config: paymentsConfig,
        deps: await depsFor('payments', 'payments'),
        port: ports.payments,
        host,
        ownsConnections: false,
      }),
    );
    const gatewayConfig = loadGatewayConfig({
      ...common,
      PAYMENTS_URL: services[0]!.url,
    });
    services.push(
      await startGatewayService({
        config: gatewayConfig,
        deps: await depsFor('gateway', 'gateway'),
        port: ports.gateway,
        host,
        ownsConnections: false,
      }),
    );
  } catch (err) {
    for (const s of services.reverse()) await s.stop();
    await bus.close();
    for (const db of dbs) await db.destroy();
    await embedded?.close();
    throw err;
  }

  const [payments, gateway] = services as [RunningService, RunningService];
  let stopping: Promise<void> | undefined;
  return {
    gatewayUrl: gateway.url,
    paymentsUrl: payments.url,
    checkoutUrl,
    services,
    bus,
    stop: () =>
      (stopping ??= shutdownInOrder(
        [
          // The edge first, so nothing new comes in while the rest drains.
          { name: 'gateway', run: () => gateway.stop() },
          { name: 'payments', run: () => payments.stop() },
          { name: 'bus', run: () => bus.close() },
          { name: 'databases', run: async () => void (await Promise.all(dbs.map((d) => d.destroy()))) },
          { name: 'embedded postgres', run: () => embedded?.close() },
        ],
        logger,
      )),
  };
};
