import { runStandalone } from '@stablepay/platform';
import { loadNotifierConfig } from './config.js';
import { startNotifierService } from './service.js';

await runStandalone({
  service: 'notifier',
  loadConfig: () => loadNotifierConfig(),
  start: (config, deps) => startNotifierService({ config, deps }),
});
