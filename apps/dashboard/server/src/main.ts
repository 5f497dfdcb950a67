import { z } from 'zod';
import { ConfigError, createLogger, envPort, loadConfig, onTermination } from '@stablepay/platform';
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

let config: z.infer<typeof dashboardConfigSchema>;
try {
  config = loadConfig(dashboardConfigSchema);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
const logger = createLogger({ service: 'dashboard', level: config.LOG_LEVEL });
try {
  const server = await startDashboardServer({
    dir: config.DASHBOARD_DIR,
    host: config.HOST,
    port: config.PORT,
  });
  server.configure({ gatewayUrl: config.GATEWAY_URL });
  logger.info('dashboard listening', { url: server.url, gateway: config.GATEWAY_URL });
  onTermination(() => server.stop(), logger);
} catch (err) {
  logger.error(`dashboard failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
