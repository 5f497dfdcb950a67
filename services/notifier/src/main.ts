import { ConfigError, createLogger, onTermination } from '@stablepay/platform';
import { loadNotifierConfig, type NotifierConfig } from './config.js';
import { openDependencies } from './dependencies.js';
import { startNotifierService } from './service.js';

let config: NotifierConfig;
try {
  config = loadNotifierConfig();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
const logger = createLogger({ service: 'notifier', level: config.LOG_LEVEL, pretty: config.LOG_PRETTY });
const { deps, closeEmbedded } = await openDependencies(config, logger);
const service = await startNotifierService({ config, deps }).catch((err: unknown) => {
  logger.error('notifier failed to start', { err });
  process.exit(1);
});
onTermination(async () => {
  await service.stop();
  await closeEmbedded();
}, logger);
