import { join } from 'node:path';
import {
  ConfigError,
  EmbeddedPostgres,
  createBus,
  createDatabase,
  createLogger,
  createMetrics,
  onTermination,
} from '@stablepay/platform';
import { loadChainWatcherConfig, type ChainWatcherConfig } from './config.js';
import { WalletKeyError } from './custody/seed-crypto.js';
import { startChainWatcherService } from './service.js';

let config: ChainWatcherConfig;
try {
  config = loadChainWatcherConfig();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
const logger = createLogger({ service: 'chain-watcher', level: config.LOG_LEVEL, pretty: config.LOG_PRETTY });
const metrics = createMetrics('chain-watcher');
const embedded = config.DATABASE_URL
  ? undefined
  : await EmbeddedPostgres.open(join(config.DATA_DIR, 'chain-watcher'));
const db = await createDatabase({ url: config.DATABASE_URL, embedded, schema: config.DATABASE_SCHEMA });
const bus = await createBus({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
const service = await startChainWatcherService({ config, deps: { logger, metrics, db, bus } }).catch(
  (err: unknown) => {
    logger.error(err instanceof WalletKeyError ? err.message : 'chain-watcher failed to start', { err });
    process.exit(1);
  },
);
onTermination(async () => {
  await service.stop();
  await embedded?.close();
}, logger);
