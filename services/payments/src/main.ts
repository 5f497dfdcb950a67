import {
  ConfigError,
  EmbeddedPostgres,
  createBus,
  createDatabase,
  createLogger,
  createMetrics,
  onTermination,
} from '@stablepay/platform';
import { join } from 'node:path';
import { loadPaymentsConfig, type PaymentsConfig } from './config.js';
import { startPaymentsService } from './service.js';

let config: PaymentsConfig;
try {
  config = loadPaymentsConfig();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
const logger = createLogger({ service: 'payments', level: config.LOG_LEVEL, pretty: config.LOG_PRETTY });
const metrics = createMetrics('payments');
const embedded = config.DATABASE_URL
  ? undefined
  : await EmbeddedPostgres.open(join(config.DATA_DIR, 'payments'));
const db = await createDatabase({ url: config.DATABASE_URL, embedded, schema: config.DATABASE_SCHEMA });
const bus = await createBus({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
const service = await startPaymentsService({ config, deps: { logger, metrics, db, bus } });
onTermination(async () => {
  await service.stop();
  await embedded?.close();
}, logger);
