import { runStandalone } from '@stablepay/platform';
import { loadGatewayConfig } from './config.js';
import { startGatewayService } from './service.js';

await runStandalone({
  service: 'gateway',
  loadConfig: () => loadGatewayConfig(),
  start: (config, deps) => startGatewayService({ config, deps }),
});
