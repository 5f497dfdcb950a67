import { loadConfig, runProcess } from '@stablepay/platform';
import { checkoutConfigSchema } from './config.js';
import { startCheckoutServer } from './server.js';

await runProcess({
  service: 'checkout',
  loadConfig: () => loadConfig(checkoutConfigSchema),
  start: async (config, logger) => {
    const server = await startCheckoutServer({
      dir: config.CHECKOUT_DIR,
      host: config.HOST,
      port: config.PORT,
      widgetOrigins: config.WIDGET_ORIGINS,
      gatewayLookupUrl: config.GATEWAY_INTERNAL_URL,
    });
    server.configure({ gatewayUrl: config.GATEWAY_URL }, [config.GATEWAY_URL, ...config.CONNECT_SRC]);
    logger.info('checkout page listening', { url: server.url, gateway: config.GATEWAY_URL });
    return server.stop;
  },
});
