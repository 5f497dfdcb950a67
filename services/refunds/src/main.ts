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
import { loadRefundsConfig, type RefundsConfig } from './config.js';
import { startRefundsService } from './service.js';

let config: RefundsConfig;
try {
  config = loadRefundsConfig();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
const logger = createLogger({ service: 'refunds', level: config.LOG_LEVEL, pretty: config.LOG_PRETTY });
const metrics = createMetrics('refunds');
const dataDir = join(config.DATA_DIR, 'refunds');
const embedded = config.DATABASE_URL ? undefined : await EmbeddedPostgres.open(dataDir);
const db = await createDatabase({ url: config.DATABASE_URL, embedded, schema: config.DATABASE_SCHEMA });
const bus = await createBus({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
const service = await startRefundsService({ config, deps: { logger, metrics, db, bus } });
onTermination(() => service.stop().then(() => embedded?.close()), logger);
