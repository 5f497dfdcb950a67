import type { z } from 'zod';
import { ConfigError, createLogger, loadConfig, onTermination } from '@stablepay/platform';
import { checkoutConfigSchema } from './config.js';
import { startCheckoutServer } from './server.js';

let config: z.infer<typeof checkoutConfigSchema>;
try {
  config = loadConfig(checkoutConfigSchema);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
const logger = createLogger({ service: 'checkout', level: config.LOG_LEVEL });
try {
  const server = await startCheckoutServer({
    dir: config.CHECKOUT_DIR,
    host: config.HOST,
    port: config.PORT,
    widgetOrigins: config.WIDGET_ORIGINS,
    gatewayLookupUrl: config.GATEWAY_INTERNAL_URL,
  });
  server.configure({ gatewayUrl: config.GATEWAY_URL }, [config.GATEWAY_URL, ...config.CONNECT_SRC]);
  logger.info('checkout page listening', { url: server.url, gateway: config.GATEWAY_URL });
  onTermination(() => server.stop(), logger);
} catch (err) {
  logger.error(`checkout failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
