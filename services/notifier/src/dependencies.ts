import { join } from 'node:path';
import {
  EmbeddedPostgres,
  createBus,
  createDatabase,
  createMetrics,
  type Logger,
  type ServiceDeps,
} from '@stablepay/platform';
import type { NotifierConfig } from './config.js';

/**
 * The database (PostgreSQL at DATABASE_URL, else embedded PGlite under DATA_DIR), the bus (RabbitMQ
 * at AMQP_URL, else in-process) and the metrics registry of a standalone notifier process.
 */
export const openDependencies = async (
  config: NotifierConfig,
  logger: Logger,
): Promise<{ deps: ServiceDeps; closeEmbedded: () => Promise<void> }> => {
  const embedded = config.DATABASE_URL
    ? undefined
    : await EmbeddedPostgres.open(join(config.DATA_DIR, 'notifier'));
  const db = await createDatabase({ url: config.DATABASE_URL, embedded, schema: config.DATABASE_SCHEMA });
  const bus = await createBus({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
  return {
    deps: { logger, metrics: createMetrics('notifier'), db, bus },
    closeEmbedded: async () => embedded?.close(),
  };
};
