import { z } from 'zod';
import { envPort, loadConfig, runProcess } from '@stablepay/platform';
import { startDashboardServer } from './server.js';

/** The dashboard's deployment: the only things it learns at run time. */
export const dashboardConfigSchema = z.object({
  PORT: envPort.default(8082),
  HOST: z.string().default('0.0.0.0'),
  /**
   * The gateway's public URL, as merchants' browsers reach it. The gateway must list this
   * dashboard's origin in its CORS_DASHBOARD_ORIGINS.
   */
  GATEWAY_URL: z.url({ protocol: /^https?$/ }),
  /** The built app (default: apps/dashboard/dist beside this server). */
  DASHBOARD_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
});

await runProcess({
  service: 'dashboard',
  loadConfig: () => loadConfig(dashboardConfigSchema),
  start: async (config, logger) => {
    const server = await startDashboardServer({
      dir: config.DASHBOARD_DIR,
      host: config.HOST,
      port: config.PORT,
    });
    server.configure({ gatewayUrl: config.GATEWAY_URL });
    logger.info('dashboard listening', { url: server.url, gateway: config.GATEWAY_URL });
    return server.stop;
  },
});
