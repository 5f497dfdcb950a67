import { runServiceMain } from '@stablepay/platform';
import { chainWatcherService } from './service.js';

await runServiceMain(chainWatcherService);
