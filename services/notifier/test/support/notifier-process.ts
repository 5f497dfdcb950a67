/**
 * The notifier as its own process, configured from the environment (PostgreSQL and RabbitMQ), for
 * tests that kill it. Prints `READY <url>` once it serves and consumes.
 */
import { createBus, createDatabase, createMetrics } from '@stablepay/platform';
import { quietLogger } from '@stablepay/platform/testing';
import { loadNotifierConfig, startNotifierService } from '../../src/index.js';

const config = loadNotifierConfig();
const logger = quietLogger('notifier-child');
const db = await createDatabase({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA });
const bus = await createBus({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
const deps = { logger, metrics: createMetrics('notifier'), db, bus };
const service = await startNotifierService({ config, deps, port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${service.url}\n`);
