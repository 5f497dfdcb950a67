import { join } from 'node:path';
import type { OwningService } from '@stablepay/contracts';
import type { BaseServiceConfig } from './config.js';
import { startDefinedService, type ServiceDefinition } from './service-definition.js';
import { ConfigError } from './config.js';
import { EmbeddedPostgres } from './db/embedded.js';
import { createDatabase } from './db/database.js';
import { onTermination } from './lifecycle.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createBus, type RunningService, type ServiceDeps } from './service.js';

/** The part of every service's configuration that running it on its own needs. */
export interface StandaloneConfig {
  LOG_LEVEL: string;
  LOG_PRETTY: boolean;
  DATABASE_URL?: string;
  DATABASE_SCHEMA: string;
  DATABASE_POOL_MAX: number;
  DATABASE_PREPARED_STATEMENTS: boolean;
  DATA_DIR: string;
  AMQP_URL?: string;
  AMQP_PREFIX: string;
}

/**
 * The entry point of a process: validate the configuration (a bad variable stops it with a message
 * naming it), start, and stop in order on SIGTERM/SIGINT. `start` answers how to stop what it started.
 */
export const runProcess = async <C extends { LOG_LEVEL: string; LOG_PRETTY?: boolean }>(opts: {
  service: string;
  loadConfig: () => C;
  start: (config: C, logger: Logger) => Promise<() => Promise<void>>;
}): Promise<void> => {
  let config: C;
  try {
    config = opts.loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
  const logger = createLogger({ service: opts.service, level: config.LOG_LEVEL, pretty: config.LOG_PRETTY });
  try {
    onTermination(await opts.start(config, logger), logger);
  } catch (err) {
    // Start-up failures (unreachable database, a key that cannot open the stored secrets) are the
    // operator's to fix: say what failed, without a stack.
    logger.error(`${opts.service} failed to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
};

/**
 * The entry point of a service run as its own process (see runProcess): connect to PostgreSQL (or
 * PGlite under DATA_DIR) and RabbitMQ (or the in-process bus), start, and shut down in order.
 */
export const runStandalone = <C extends StandaloneConfig>(opts: {
  service: string;
  loadConfig: () => C;
  start: (config: C, deps: ServiceDeps) => Promise<RunningService>;
}): Promise<void> =>
  runProcess({
    service: opts.service,
    loadConfig: opts.loadConfig,
    start: async (config, logger) => {
      const embedded = config.DATABASE_URL
        ? undefined
        : await EmbeddedPostgres.open(join(config.DATA_DIR, opts.service));
      const db = await createDatabase({
        url: config.DATABASE_URL,
        embedded,
        schema: config.DATABASE_SCHEMA,
        poolMax: config.DATABASE_POOL_MAX,
        preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
      });
      const bus = await createBus({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
      const service = await opts.start(config, { logger, metrics: createMetrics(opts.service), db, bus });
      return async () => {
        await service.stop();
        await embedded?.close();
      };
    },
  });

/** A defined service as its own process: `await runServiceMain(paymentsService)` is its whole main. */
export const runServiceMain = <S extends OwningService, C extends BaseServiceConfig, X, O>(
  definition: ServiceDefinition<S, C, X, O>,
): Promise<void> =>
  runStandalone({
    service: definition.name,
    loadConfig: () => definition.loadConfig(),
    start: (config, deps) => startDefinedService(definition, { config, deps }),
  });
