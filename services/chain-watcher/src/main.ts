import { runStandalone } from '@stablepay/platform';
import { loadChainWatcherConfig } from './config.js';
import { startChainWatcherService } from './service.js';

await runStandalone({
  service: 'chain-watcher',
  loadConfig: () => loadChainWatcherConfig(),
  start: (config, deps) => startChainWatcherService({ config, deps }),
});
