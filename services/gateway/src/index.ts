export { gatewayConfigSchema, loadGatewayConfig, type GatewayConfig } from './config.js';
export { gatewayService, type GatewayOptions } from './service.js';
export type { GatewayContext } from './gateway-context.js';
export { gatewayMigrations } from './migrations.js';
export { gatewayConsumers } from './consumers.js';
