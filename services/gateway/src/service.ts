import type { RouteSpec } from '@stablepay/contracts';
import { defineService } from '@stablepay/platform';
import { loadGatewayConfig } from './config.js';
import { markUnfingerprintedApiKeys } from './api-keys/api-keys-repo.js';
import { createMaintenanceWorker } from './maintenance.js';
import { gatewayMigrations } from './migrations.js';
import { pepperFingerprint } from './api-keys/key-format.js';
import { resealTotpSecrets } from './api-keys/pepper-rotation.js';
import { createGatewayContext } from './gateway-context.js';
import { buildGatewayRouter } from './perimeter/router.js';
import { gatewayConsumers } from './consumers.js';
import { closeUpstreams, createUpstreams } from './proxy/upstreams.js';

export interface GatewayOptions {
  /** The route catalogue served; the contracts' merchant-facing routes unless a test passes a copy. */
  catalogue?: readonly RouteSpec[];
}

/**
 * The only service merchants talk to: it authenticates callers itself (API keys, sessions) instead
 * of by internal token, and its router, built from the whole catalogue, runs before any body is
 * parsed so that forwarded bodies stream through untouched.
 */
export const gatewayService = defineService({
  name: 'gateway',
  migrations: gatewayMigrations,
  loadConfig: loadGatewayConfig,
  internalToken: false,
  http: { trustProxy: (config) => config.TRUSTED_PROXIES },
  build: async ({ config, deps, eventsCommitted }, options: GatewayOptions) => {
    // Keys made before fingerprints were stored; outside a rotation they are under the current pepper.
    if (!config.API_KEY_PEPPER_PREVIOUS)
      await markUnfingerprintedApiKeys(deps.db, pepperFingerprint(config.API_KEY_PEPPER));
    else await resealTotpSecrets(deps.db, config, deps.logger);
    const context = createGatewayContext(config, deps, eventsCommitted);
    const upstreams = createUpstreams(config);
    return {
      beforeBody: [buildGatewayRouter(context, upstreams, options.catalogue)],
      consumers: gatewayConsumers,
      workers: [createMaintenanceWorker(deps.db, deps.logger)],
      close: async () => {
        closeUpstreams(upstreams);
        await context.limitStores.close();
      },
      context,
    };
  },
});
