export { gatewayConfigSchema, loadGatewayConfig, type GatewayConfig } from './config.js';
export {
  SERVICE_NAME,
  buildGatewayService,
  startGatewayService,
  type GatewayService,
  type GatewayServiceOptions,
  type StartGatewayOptions,
} from './service.js';
export { gatewayMigrations } from './db/migrations.js';
export { gatewayEventHandlers } from './messaging/wallet-assigned.js';
