import { runStandalone } from '@stablepay/platform';
import { loadRefundsConfig } from './config.js';
import { startRefundsService } from './service.js';

await runStandalone({
  service: 'refunds',
  loadConfig: () => loadRefundsConfig(),
  start: (config, deps) => startRefundsService({ config, deps }),
});
