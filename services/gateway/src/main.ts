import {
  EmbeddedPostgres,
  createBus,
  createDatabase,
  createLogger,
  createMetrics,
  onTermination,
} from '@stablepay/platform';
import { loadGatewayConfig } from './config.js';
import { SERVICE_NAME, startGatewayService } from './service.js';

const config = loadGatewayConfig(process.env);
const logger = createLogger({ service: SERVICE_NAME, level: config.LOG_LEVEL, pretty: config.LOG_PRETTY });
const metrics = createMetrics(SERVICE_NAME);
const embedded = config.DATABASE_URL ? undefined : await EmbeddedPostgres.open(config.DATA_DIR);
const db = await createDatabase({ url: config.DATABASE_URL, embedded, schema: config.DATABASE_SCHEMA });
const bus = await createBus({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
const service = await startGatewayService({ config, deps: { logger, metrics, db, bus } });
onTermination(async () => {
  await service.stop();
  await embedded?.close();
}, logger);
