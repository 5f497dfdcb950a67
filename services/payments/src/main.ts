import { runStandalone } from '@stablepay/platform';
import { loadPaymentsConfig } from './config.js';
import { startPaymentsService } from './service.js';

await runStandalone({
  service: 'payments',
  loadConfig: () => loadPaymentsConfig(),
  start: (config, deps) => startPaymentsService({ config, deps }),
});
